// The wire forms of faults (mock/faults) where there is no connection, only a Web `Response`: msw's handlers and
// `backend.fetch`. Each is mapped to its nearest real form (docs/decisions/api-faults.md):
// - hang: no answer until the request's signal aborts (the client's timeout); then what an aborted fetch gives;
// - reset: a network error (`Response.error()`, which msw turns into a rejected fetch; `backend.fetch` rejects a
//   TypeError as fetch does);
// - reset-after-headers: the status and headers arrive, reading the body fails;
// - cut-body: the first bytes of the body arrive, then reading fails;
// - trickle: the body arrives a few bytes at a time, on the backend's clock.
import { type Clock, sleep } from '../../src/shared/clock.js';
import type { MockResponse, WireForm } from '../http/types.js';

/** How a hang ends when the request is aborted: msw wants an answer (it has rejected the fetch already), fetch a rejection. */
export type HangEnd = 'network-error' | 'reject';

/** Plays `res`'s wire form as a Web `Response` (`toResponse` builds the ordinary one). */
export function playWebFault(
  res: MockResponse & { fault: { wire: WireForm } },
  request: Request,
  clock: Clock,
  toResponse: (res: MockResponse, body?: ReadableStream<Uint8Array>) => Response,
  hangEnd: HangEnd,
): Response | Promise<Response> {
  const wire = res.fault.wire;
  const cause = `connection reset by the linkgate mock (fault ${res.fault.rule}: ${res.fault.kind})`;
  const bytes = typeof res.body === 'string' ? new TextEncoder().encode(res.body) : res.body;
  // The whole body's length is declared, as on the wire: a client (undici under msw too) then sees a body that ends
  // early as cut short ("terminated"), not as a shorter answer.
  const declared = { ...res, headers: { ...res.headers, 'content-length': String(bytes.byteLength) } };
  switch (wire.form) {
    case 'hang':
      return hang(request.signal, hangEnd);
    case 'reset':
      return Response.error();
    case 'reset-after-headers':
      return toResponse(declared, failingBody(new Uint8Array(0), cause));
    case 'cut-body':
      return toResponse(declared, failingBody(bytes.subarray(0, wire.bytes), cause));
    case 'trickle':
      return toResponse(declared, trickle(bytes, wire.chunkBytes, wire.intervalMs, clock));
  }
}

/** Never answers; when the request is aborted, ends as `end` says. */
function hang(signal: AbortSignal, end: HangEnd): Promise<Response> {
  return new Promise((resolve, reject) => {
    const stop = () => (end === 'reject' ? reject(signal.reason) : resolve(Response.error()));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * A body that gives `head` (even an empty one: msw sends the status and headers with the first chunk) and then fails,
 * as a connection dropped mid-body does.
 */
function failingBody(head: Uint8Array, cause: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(head.slice());
        return;
      }
      // One turn of the event loop first: msw writes the head it was given before it sees the failure.
      await new Promise((resolve) => setTimeout(resolve, 0));
      controller.error(new TypeError('terminated', { cause: new Error(cause) }));
    },
  });
}

/** A body that gives `chunk` bytes every `interval` ms on `clock`. */
function trickle(bytes: Uint8Array, chunk: number, interval: number, clock: Clock): ReadableStream<Uint8Array> {
  let at = 0;
  const stop = new AbortController();
  return new ReadableStream({
    async pull(controller) {
      if (at >= bytes.byteLength) {
        controller.close();
        return;
      }
      await sleep(clock, interval, stop.signal);
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
    cancel() {
      stop.abort();
    },
  });
}
