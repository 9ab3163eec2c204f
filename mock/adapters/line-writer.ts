// Node-only: the standalone server's log output. A `write` per request line cost the mock a third of its throughput
// (stdout to a pipe or file is synchronous on Linux: one system call each); lines are gathered and written once per
// turn of the event loop instead.

/** Where {@link BatchedLineWriter} writes: `process.stdout`, or anything with a `write(text)`. */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * Gathers text written in one turn of the event loop and hands it to `sink` in one `write` (in the check phase, after
 * the turn's I/O callbacks), so a server answering many requests per turn pays one system call for all their lines.
 * Order is kept. Nothing is lost at exit: {@link BatchedLineWriter.flushOnExit} writes what is pending in the
 * process's `exit` event, which `process.exit()` (the CLI's SIGINT/SIGTERM path) and a natural end both emit.
 *
 * @example
 * const out = new BatchedLineWriter(process.stdout).flushOnExit();
 * out.write('GET /api/account 200 alice (user 2) 1 ms\n');
 */
export class BatchedLineWriter {
  readonly #sink: LineSink;
  #pending: string[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  readonly #flush = () => this.flush();

  constructor(sink: LineSink) {
    this.#sink = sink;
  }

  /** Queues `text` (with its own line ending) for the next flush. */
  write(text: string): void {
    this.#pending.push(text);
    // unref'd: a pending flush must not keep a process alive that has nothing else to do; `exit` flushes it.
    this.#scheduled ??= setImmediate(this.#flush).unref();
  }

  /** Writes everything queued now, in one `write`. */
  flush(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#pending.length === 0) return;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#sink.write(text);
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
