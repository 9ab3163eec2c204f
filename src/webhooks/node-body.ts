import type { NodeRequestLike } from './node-request.js';
import { bodyTimedOut, incomplete, tooLarge } from './raw-body.js';
import { WebhookVerificationError } from './webhook-errors.js';

/** The parts of a Node readable stream used to read a body on demand (`IncomingMessage` and Express requests have them). */
export interface NodeStreamLike {
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy?(error?: Error): unknown;
}

/** Limits of {@link NodeRequestBody}. */
export interface NodeBodyLimits {
  /** Bytes past which reading stops with `body_too_large`. */
  maxBytes: number;
  /** Milliseconds from the request's arrival to the body's end, past which reading stops with `body_timeout`. */
  timeoutMs: number;
}

/** After the answer, how long a connection with an unfinished body stays open, so the client can read the answer. */
export const LINGER_MS = 1000;

/** After the answer, how much of an unfinished body is read and dropped, so a small delivery can finish cleanly. */
export const LINGER_BYTES = 64 * 1024;

/**
 * A Node request body that is read only when the handler pulls it, so a delivery refused on its headers (no or wrong
 * secret) costs no buffering at all; bounded in size and in time; and, once the answer is out, either finished or cut
 * off, so a never-ending body cannot hold the connection.
 */
export class NodeRequestBody {
  /** The body as a web stream, for `new Request(…, { body })`; nothing is read before its first pull. */
  readonly stream: ReadableStream<Uint8Array>;
  readonly #req: NodeRequestLike;
  readonly #limits: NodeBodyLimits;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  /** True once the whole body has been received (or a framework had already received it). */
  #ended = false;
  /** True once the stream has closed or failed: later chunks are not the handler's business. */
  #done = false;
  #total = 0;
  /** True once 'data' is listened to, i.e. the handler asked for the body. */
  #reading = false;
  #wake: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(req: NodeRequestLike, limits: NodeBodyLimits) {
    this.#req = req;
    this.#limits = limits;
    const kept = keptBody(req);
    if (kept !== undefined) {
      // A framework read the socket already; what it kept is all there is.
      this.#ended = true;
      this.stream = fixedStream(kept, limits.maxBytes);
      return;
    }
    const emitter = asEmitter(req);
    this.stream = new ReadableStream<Uint8Array>(
      emitter
        ? {
            start: (controller) => {
              this.#controller = controller;
              this.#listen(emitter);
            },
            pull: () => this.#pullFrom(emitter),
            cancel: () => {
              this.#done = true;
              emitter.pause();
            },
          }
        : iterableSource(req, limits.maxBytes),
      // Zero: nothing is read ahead of the handler's first read.
      { highWaterMark: 0 },
    );
    if (!emitter || this.#done) return;
    this.#timer = setTimeout(() => this.#fail(bodyTimedOut(limits.timeoutMs)), limits.timeoutMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Called once the answer is sent. The rest of a body that has not ended is read and dropped, up to
   * {@link LINGER_BYTES}, so a delivery that was still finishing its upload ends cleanly and keeps its connection; past
   * that, or after {@link LINGER_MS} (time enough for the client to read the answer), the connection is destroyed.
   */
  settle(): void {
    this.#done = true;
    this.#stopTimer();
    const emitter = asEmitter(this.#req);
    if (this.#ended || !emitter) return;
    const linger = setTimeout(() => emitter.destroy?.(), LINGER_MS);
    (linger as { unref?: () => void }).unref?.();
    const stop = () => clearTimeout(linger);
    emitter.on('end', stop);
    emitter.on('close', stop);
    let dropped = 0;
    emitter.on('data', (chunk: Uint8Array | string) => {
      dropped += chunk.length;
      // Not a delivery finishing its upload: stop reading it, and the timer cuts it off.
      if (dropped > LINGER_BYTES) emitter.pause();
    });
    emitter.resume();
  }

  #listen(emitter: NodeStreamLike): void {
    const declared = this.#req.headers['content-length'];
    // An honest Content-Length above the limit fails the first read, once the handler has checked the secret.
    if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > this.#limits.maxBytes) {
      this.#fail(tooLarge(this.#limits.maxBytes));
    }
    emitter.on('end', () => {
      this.#ended = true;
      this.#stopTimer();
      if (!this.#done) {
        this.#done = true;
        this.#controller.close();
      }
      this.#wakeUp();
    });
    emitter.on('error', (error: unknown) => this.#fail(incomplete(error)));
    emitter.on('close', () => {
      if (!this.#ended) this.#fail(incomplete());
    });
  }

  #pullFrom(emitter: NodeStreamLike): Promise<void> {
    if (this.#done) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      if (!this.#reading) {
        // Attaching 'data' starts the flow; done at the first pull, so an unread body is never read.
        this.#reading = true;
        emitter.on('data', (chunk: Uint8Array | string) => this.#onChunk(emitter, chunk));
      }
      emitter.resume();
    });
  }

  #onChunk(emitter: NodeStreamLike, chunk: Uint8Array | string): void {
    if (this.#done) return;
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    this.#total += bytes.byteLength;
    if (this.#total > this.#limits.maxBytes) {
      this.#fail(tooLarge(this.#limits.maxBytes));
      return;
    }
    this.#controller.enqueue(bytes);
    // One chunk per pull: the handler's reading paces the socket.
    emitter.pause();
    this.#wakeUp();
  }

  #fail(error: WebhookVerificationError): void {
    this.#stopTimer();
    if (this.#done) return;
    this.#done = true;
    asEmitter(this.#req)?.pause();
    this.#controller.error(error);
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The body a framework already read: bytes or text it kept, or a set-up error when it kept only a parsed form. */
function keptBody(req: NodeRequestLike): Uint8Array | string | WebhookVerificationError | undefined {
  for (const kept of [req.rawBody, req.body]) {
    if (typeof kept === 'string' || kept instanceof Uint8Array) return kept;
  }
  if (req.readableEnded !== true) return undefined;
  if (req.body !== undefined && req.body !== null) {
    return new WebhookVerificationError(
      'raw_body_required',
      'A body parser (e.g. express.json()) already consumed the request, and no raw body was kept. ' +
        "Mount the webhook route before express.json(), or use express.raw({ type: 'application/json' }) on it.",
    );
  }
  return new WebhookVerificationError(
    'raw_body_required',
    'The request stream was already read to its end before the webhook handler got it, and no raw body was kept. ' +
      'Hand the request to toNodeHandler unread, or keep the raw bytes on req.rawBody.',
  );
}

/** A stream of a body already in hand, or one whose first read fails with the set-up error or the size refusal. */
function fixedStream(
  kept: Uint8Array | string | WebhookVerificationError,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (kept instanceof WebhookVerificationError) return controller.error(kept);
        const bytes = typeof kept === 'string' ? new TextEncoder().encode(kept) : kept;
        if (bytes.byteLength > maxBytes) return controller.error(tooLarge(maxBytes));
        controller.enqueue(bytes);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** For request objects that are only async iterables (no stream events): read on demand, bounded in size. */
function iterableSource(req: NodeRequestLike, maxBytes: number): UnderlyingDefaultSource<Uint8Array> {
  let iterator: AsyncIterator<Uint8Array | string> | undefined;
  let total = 0;
  return {
    async pull(controller) {
      iterator ??= req[Symbol.asyncIterator]();
      const { done, value } = await iterator.next();
      if (done) return controller.close();
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      total += bytes.byteLength;
      if (total > maxBytes) return controller.error(tooLarge(maxBytes));
      controller.enqueue(bytes);
    },
  };
}

function asEmitter(req: NodeRequestLike): NodeStreamLike | undefined {
  const candidate = req as Partial<NodeStreamLike>;
  return typeof candidate.on === 'function' &&
    typeof candidate.pause === 'function' &&
    typeof candidate.resume === 'function'
    ? (candidate as NodeStreamLike)
    : undefined;
}
