import type { BackendCore } from '../backend.js';
import type { AttemptRecord } from '../gateway/delivery-attempt.js';
import type { Unsubscribe } from '../gateway/lifecycle-emitter.js';
import { type InspectorSnapshot, type SectionName, takeSnapshot } from './inspector-snapshot.js';
import { PublishedLog } from './published-log.js';

/** One reader of the feed, e.g. an SSE response. `write` returns false when the reader's buffer is full. */
export interface FeedClient {
  write(chunk: string): boolean;
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
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The inspector's live feed of a backend: a `snapshot` event first, then, as things happen, `attempt`, `circuit`
 * and `dead-letter` events and each changed section of the snapshot (`clock`, `data`, `rate`, `webhooks`,
 * `deliveries`, `deadLetters`, `devices`, `messages`) whole. Bounded per reader: a reader whose buffer is full is
 * sent nothing until it drains, then one fresh snapshot, so a slow reader costs one buffer, never a growing queue.
 * Follows attempts, circuits and dead letters only while someone reads; keeps a bounded log of published events
 * (pairing frames, messages) from the start. Runtime-neutral (timers only); the SSE framing is node-free too.
 */
export class InspectorFeed {
  readonly #backend: BackendCore;
  readonly #log: PublishedLog;
  readonly #coalesceMs: number;
  readonly #tickMs: number;
  readonly #readers = new Set<Reader>();
  #unsubscribe: Unsubscribe[] = [];
  readonly #stopLog: Unsubscribe;
  #last: InspectorSnapshot | undefined;
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
    const snapshot = this.#snapshot();
    this.#last ??= snapshot;
    this.#send(reader, sseEvent('snapshot', snapshot));
    return {
      drained: () => {
        reader.full = false;
        if (reader.missed && this.#readers.has(reader)) {
          reader.missed = false;
          this.#send(reader, sseEvent('snapshot', this.#snapshot()));
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
    ];
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
    this.#last = undefined;
  }

  #snapshot(): InspectorSnapshot {
    return takeSnapshot(this.#backend, this.#log);
  }

  /** A lifecycle event goes out at once; the sections it changed follow with the next flush. */
  #event(name: string, data: unknown): void {
    const chunk = sseEvent(name, data);
    for (const reader of this.#readers) this.#send(reader, chunk);
    this.touch();
  }

  /** Sends each section that changed since the last flush; with `keepAlive`, a comment when none did. */
  #flush(keepAlive = false): void {
    if (this.#readers.size === 0) return;
    const next = this.#snapshot();
    const previous = this.#last;
    this.#last = next;
    let chunk = '';
    for (const name of Object.keys(next) as SectionName[]) {
      // The real clock's `now` always moves; the clock section is sent when anything else is, or on the tick.
      if (name === 'clock') continue;
      if (previous === undefined || JSON.stringify(previous[name]) !== JSON.stringify(next[name])) {
        chunk += sseEvent(name, next[name]);
      }
    }
    const clockMoved = JSON.stringify(previous?.clock) !== JSON.stringify(next.clock);
    if (chunk !== '' || (clockMoved && (keepAlive || next.clock.kind === 'manual')))
      chunk = sseEvent('clock', next.clock) + chunk;
    if (chunk === '' && keepAlive) chunk = ': keep-alive\n\n';
    if (chunk === '') return;
    for (const reader of this.#readers) this.#send(reader, chunk);
  }

  #send(reader: Reader, chunk: string): void {
    if (reader.full) {
      reader.missed = true;
      return;
    }
    if (!reader.client.write(chunk)) reader.full = true;
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
