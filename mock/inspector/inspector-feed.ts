import type { BackendCore } from '../backend.js';
import type { AttemptRecord } from '../delivery/delivery-attempt.js';
import type { Unsubscribe } from '../delivery/lifecycle-emitter.js';
import { type DataChanges, DataRows } from './data-changes.js';
import { type InspectorSnapshot, type SectionName, takeSnapshot } from './inspector-snapshot.js';
import { PublishedLog } from './published-log.js';

/** One reader of the feed, e.g. an SSE response. `write` returns false when the reader's buffer is full. */
export interface FeedClient {
  /** Every reader is handed the same bytes: an update is serialised and encoded once, however many read it. */
  write(chunk: Uint8Array): boolean;
}

/** A connected reader's handle: tell the feed when the reader's buffer drained, or that it went away. */
export interface FeedConnection {
  /** The reader can take more: one fresh snapshot replaces whatever it missed while it was full. */
  drained(): void;
  /** The reader went away; frees its state (and the feed's subscriptions when it was the last). */
  close(): void;
}

/** Options of an {@link InspectorFeed}. */
export interface InspectorFeedOptions {
  /** Changes within this many real ms are sent as one update. @default 100 */
  coalesceMs?: number;
  /** Real ms between refreshes while someone reads (countdowns on the real clock, keep-alive). @default 5000 */
  tickMs?: number;
}

interface Reader {
  client: FeedClient;
  /** The last write did not fit: send nothing more until drained. */
  full: boolean;
  /** Something was left out while full: send a whole snapshot once drained. */
  missed: boolean;
}

/** One server-sent event: `event: <name>` and one `data:` line of JSON. */
export function sseEvent(name: string, data: unknown): string {
  return sseFrame(name, JSON.stringify(data));
}

const sseFrame = (name: string, json: string) => `event: ${name}\ndata: ${json}\n\n`;
const encoder = new TextEncoder();
/** Real ms a serialised snapshot is handed to readers that connect or drain, unless something changes first. */
const SNAPSHOT_REUSE_MS = 50;
/** The sections sent whole when they change; `data` goes as `data-changes`, `clock` with any update or tick. */
const WHOLE: SectionName[] = ['rate', 'webhooks', 'deliveries', 'deadLetters', 'devices', 'messages', 'faults'];

/**
 * The inspector's live feed of a backend: a `snapshot` event first, then, as things happen, `attempt`, `circuit`
 * and `dead-letter` events, `data-changes` (the rows of the data section that changed, and the ids removed) and
 * each other changed section of the snapshot (`clock`, `rate`, `webhooks`, `deliveries`, `deadLetters`, `devices`,
 * `messages`) whole. An update is serialised once and the same bytes go to every reader, so its cost follows the
 * change, not the store's size times the readers. Bounded per reader: a reader whose buffer is full is sent nothing
 * until it drains, then one fresh snapshot, so a slow reader costs one buffer, never a growing queue. Follows
 * attempts, circuits and dead letters only while someone reads; keeps a bounded log of published events (pairing
 * frames, messages) from the start. Runtime-neutral (timers and TextEncoder only); the SSE framing is node-free too.
 */
export class InspectorFeed {
  readonly #backend: BackendCore;
  readonly #log: PublishedLog;
  readonly #coalesceMs: number;
  readonly #tickMs: number;
  readonly #readers = new Set<Reader>();
  #unsubscribe: Unsubscribe[] = [];
  readonly #stopLog: Unsubscribe;
  /** Each whole section's JSON as last sent (strings, never the live objects, which change in place). */
  #sent = new Map<SectionName, string>();
  #rows = new DataRows();
  /** The snapshot event's bytes until something changes: readers connecting or draining meanwhile share it. */
  #snapshotBytes: Uint8Array | undefined;
  #snapshotAt = 0;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #tickTimer: ReturnType<typeof setInterval> | undefined;

  constructor(backend: BackendCore, options: InspectorFeedOptions = {}) {
    this.#backend = backend;
    this.#log = new PublishedLog(() => backend.clock.now());
    this.#coalesceMs = options.coalesceMs ?? 100;
    this.#tickMs = options.tickMs ?? 5_000;
    // The log is kept from the start (bounded: a frame per device, 50 messages), so a page opened mid-pairing
    // shows the current frame and the messages sent before it opened.
    const stopRecording = backend.gateway.on('published', (e) => {
      if (this.#log.record(e)) this.touch();
    });
    // A reset forgets the messages and frames with everything else, so the page shows none from before it.
    const stopClearing = backend.gateway.on('reset', () => {
      this.#log.clear();
      this.touch();
    });
    this.#stopLog = () => {
      stopRecording();
      stopClearing();
    };
  }

  /** Readers connected now. */
  get readers(): number {
    return this.#readers.size;
  }

  /** Whether the feed follows the gateway's attempts, circuits and dead letters (only while someone reads). */
  get listening(): boolean {
    return this.#unsubscribe.length > 0;
  }

  /** Adds a reader: it gets a snapshot at once, then the changes. */
  connect(client: FeedClient): FeedConnection {
    if (this.#readers.size === 0) this.#listen();
    const reader: Reader = { client, full: false, missed: false };
    this.#readers.add(reader);
    this.#send(reader, this.#snapshot());
    return {
      drained: () => {
        reader.full = false;
        if (reader.missed && this.#readers.has(reader)) {
          reader.missed = false;
          this.#send(reader, this.#snapshot());
        }
      },
      close: () => {
        if (!this.#readers.delete(reader)) return;
        if (this.#readers.size === 0) this.#quiet();
      },
    };
  }

  /** Something may have changed (a request was answered, time moved): send what did, coalesced. */
  touch(): void {
    this.#snapshotBytes = undefined;
    if (this.#readers.size === 0 || this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flush();
    }, this.#coalesceMs);
  }

  /** Disconnects every reader and stops keeping the log (the server is closing). */
  close(): void {
    this.#readers.clear();
    this.#quiet();
    this.#stopLog();
  }

  #listen(): void {
    const { gateway } = this.#backend;
    this.#unsubscribe = [
      gateway.on('attempt', (a) => this.#event('attempt', attemptEvent(a))),
      gateway.on('circuit', (c) => this.#event('circuit', c)),
      gateway.on('dead-lettered', ({ body: _body, ...item }) => this.#event('dead-letter', item)),
      gateway.on('delivered', () => this.touch()),
      gateway.on('evicted', () => this.touch()),
      gateway.on('dropped', () => this.touch()),
      // Faults armed, disarmed or spent, and each call a fault changed (the `faults` section).
      this.#backend.faults.on('changed', () => this.touch()),
      this.#backend.faults.on('fired', () => this.touch()),
    ];
    // What the readers hold is what the first snapshot says; updates are measured from it, and it is what they get.
    const first = takeSnapshot(this.#backend, this.#log);
    this.#remember(first);
    this.#snapshotBytes = encoder.encode(sseEvent('snapshot', first));
    this.#snapshotAt = Date.now();
    this.#tickTimer = setInterval(() => this.#flush(true), this.#tickMs);
    (this.#tickTimer as { unref?: () => void }).unref?.();
  }

  #quiet(): void {
    for (const stop of this.#unsubscribe) stop();
    this.#unsubscribe = [];
    clearInterval(this.#tickTimer);
    clearTimeout(this.#flushTimer);
    this.#tickTimer = undefined;
    this.#flushTimer = undefined;
    this.#sent = new Map();
    this.#rows = new DataRows();
    this.#snapshotBytes = undefined;
  }

  /** Records a snapshot as sent; returns the whole sections that differ from the last one and the rows that do. */
  #remember(next: InspectorSnapshot): { sections: { name: SectionName; json: string }[]; rows?: DataChanges } {
    const sections: { name: SectionName; json: string }[] = [];
    for (const name of [...WHOLE, 'clock'] as SectionName[]) {
      const json = JSON.stringify(next[name]);
      if (this.#sent.get(name) !== json) sections.push({ name, json });
      this.#sent.set(name, json);
    }
    return { sections, rows: this.#rows.update(next.data) };
  }

  /**
   * The snapshot event, serialised once for every reader that asks before the next change, and for at most
   * {@link SNAPSHOT_REUSE_MS} (its `clock.now` is how a page on the real clock sets its countdowns).
   */
  #snapshot(): Uint8Array {
    if (this.#snapshotBytes === undefined || Date.now() - this.#snapshotAt > SNAPSHOT_REUSE_MS) {
      this.#snapshotBytes = encoder.encode(sseEvent('snapshot', takeSnapshot(this.#backend, this.#log)));
      this.#snapshotAt = Date.now();
    }
    return this.#snapshotBytes;
  }

  /** A lifecycle event goes out at once; the sections it changed follow with the next flush. */
  #event(name: string, data: unknown): void {
    this.#broadcast(sseEvent(name, data));
    this.touch();
  }

  /** Sends each section that changed since the last flush; with `keepAlive`, a comment when none did. */
  #flush(keepAlive = false): void {
    if (this.#readers.size === 0) return;
    const next = takeSnapshot(this.#backend, this.#log);
    const { sections, rows } = this.#remember(next);
    let chunk = '';
    for (const { name, json } of sections) if (name !== 'clock') chunk += sseFrame(name, json);
    if (rows) chunk += sseEvent('data-changes', rows);
    // The real clock's `now` always moves; the clock section is sent when anything else is, or on the tick.
    const clockMoved = sections.some((c) => c.name === 'clock');
    if (chunk !== '' || (clockMoved && (keepAlive || next.clock.kind === 'manual')))
      chunk = sseFrame('clock', this.#sent.get('clock')!) + chunk;
    if (chunk === '' && keepAlive) chunk = ': keep-alive\n\n';
    if (chunk !== '') this.#broadcast(chunk);
  }

  /** Encodes once; every reader gets the same bytes. */
  #broadcast(chunk: string): void {
    const bytes = encoder.encode(chunk);
    for (const reader of this.#readers) this.#send(reader, bytes);
  }

  #send(reader: Reader, bytes: Uint8Array): void {
    if (reader.full) {
      reader.missed = true;
      return;
    }
    if (!reader.client.write(bytes)) reader.full = true;
  }
}

/** An attempt as the feed sends it: what the timeline needs, without the request (its headers carry the secret). */
function attemptEvent(a: AttemptRecord) {
  return {
    deliveryId: a.deliveryId,
    event: a.event,
    tenant: a.tenant,
    url: a.url,
    attempt: a.attempt,
    startedAt: a.startedAt,
    durationMs: Math.round(a.durationMs),
    status: a.response?.status ?? null,
    error: a.error,
    outcome: a.outcome,
    nextAttemptAt: a.nextAttemptAt,
    probe: a.probe,
  };
}
