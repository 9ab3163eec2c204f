// Node-only: the standalone server's log output. A `write` per request line cost the mock a third of its throughput
// (a system call and a write request each); lines are gathered and written together every few milliseconds instead.

/** Where {@link BatchedLineWriter} writes: `process.stdout`, or anything with a `write(text)`. */
export interface LineSink {
  write(text: string): unknown;
  /** Bytes written but not yet taken by the reader (a stream's own count); absent means always 0. */
  readonly writableLength?: number;
}

/** Options of {@link BatchedLineWriter}. */
export interface BatchedLineWriterOptions {
  /**
   * Bytes the sink may hold unread before lines are dropped (and counted, and the count written once it drains):
   * stdout to a pipe is asynchronous, so a reader slower than the requests would otherwise grow the server's memory
   * without bound.
   * @default 4 MiB
   */
  maxUnreadBytes?: number;
  /**
   * How long a line may wait for the lines after it: one write per interval, whatever the request rate.
   * @default 10
   */
  intervalMs?: number;
}

/**
 * Gathers text written within `intervalMs` (10 ms) and hands it to `sink` in one `write`, so a server answering
 * thousands of requests a second pays a hundred writes for all their lines, not one each. Order is kept. Nothing is lost at exit: {@link BatchedLineWriter.flushOnExit} writes what is pending in the
 * process's `exit` event, which `process.exit()` (the CLI's SIGINT/SIGTERM path) and a natural end both emit.
 *
 * @example
 * const out = new BatchedLineWriter(process.stdout).flushOnExit();
 * out.write('GET /api/account 200 alice (user 2) 1 ms\n');
 */
export class BatchedLineWriter {
  readonly #sink: LineSink;
  readonly #maxUnread: number;
  readonly #intervalMs: number;
  #pending: string[] = [];
  #dropped = 0;
  #scheduled: NodeJS.Timeout | undefined;
  readonly #flush = () => this.flush();

  constructor(sink: LineSink, options: BatchedLineWriterOptions = {}) {
    this.#sink = sink;
    this.#maxUnread = options.maxUnreadBytes ?? 4 * 1024 * 1024;
    this.#intervalMs = options.intervalMs ?? 10;
  }

  /** Queues `text` (with its own line ending) for the next flush. */
  write(text: string): void {
    this.#pending.push(text);
    // unref'd: a pending flush must not keep a process alive that has nothing else to do; `exit` flushes it.
    this.#scheduled ??= setTimeout(this.#flush, this.#intervalMs).unref();
  }

  /** Writes everything queued now, in one `write`. */
  flush(): void {
    if (this.#scheduled) clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#pending.length === 0) return;
    if ((this.#sink.writableLength ?? 0) > this.#maxUnread) {
      this.#dropped += this.#pending.length;
      this.#pending = [];
      return;
    }
    const note =
      this.#dropped === 0
        ? ''
        : `(${this.#dropped} log lines dropped: this output was not read as fast as they came)\n`;
    this.#dropped = 0;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#sink.write(note + text);
  }

  /** Flushes in the process's `exit` event too (stdout to a pipe or file is written synchronously there). */
  flushOnExit(): this {
    process.once('exit', this.#flush);
    return this;
  }
}

let stampedAt = Number.NaN;
let stamp = '';

/**
 * `HH:MM:SS.mmm` (UTC) of `now`, as the log's lines start: worked out once per millisecond, since a `Date` and its ISO
 * string per line cost more than the rest of the line.
 */
export function clockTime(now = Date.now()): string {
  if (now === stampedAt) return stamp;
  const day = ((now % 86_400_000) + 86_400_000) % 86_400_000;
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const ms = day % 1000;
  stamp = `${two(Math.floor(day / 3_600_000))}:${two(Math.floor(day / 60_000) % 60)}:${two(Math.floor(day / 1000) % 60)}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}`;
  stampedAt = now;
  return stamp;
}
