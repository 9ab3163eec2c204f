import { type Clock, systemClock } from '../../src/shared/clock.js';
import { unreadableCharset, unreadableCharsetResponse } from '../http/body-charset.js';
import { bodyTooLargeResponse, declaresTooLarge, MAX_BODY_BYTES } from '../http/body-limit.js';
import type { MockRequest, MockResponse, WireForm } from '../http/types.js';
import { type HangEnd, playWebFault } from './web-fault.js';

/** What {@link toMockRequest} gives back: the light request, or the answer to send instead (a body over 1 MB). */
export type MockRequestOrRefusal = { request: MockRequest } | { refusal: MockResponse };

/**
 * Turns a Web `Request` into the mock's light {@link MockRequest}: lower-case headers, the body read as text, the
 * query parsed. A body over 1 MB is refused without reading the rest of it (the stream is cancelled).
 *
 * @param pathPrefix - a path prefix of the base URL (e.g. `/v3` for `https://host/v3`) stripped before routing.
 */
export async function toMockRequest(request: Request, pathPrefix = ''): Promise<MockRequestOrRefusal> {
  const url = new URL(request.url);
  let path = url.pathname;
  if (pathPrefix && path.startsWith(pathPrefix)) path = path.slice(pathPrefix.length) || '/';
  if (declaresTooLarge(request.headers.get('content-length'))) {
    // Not awaited: a cancelled body may never settle (msw's intercepted streams don't), and nothing depends on it.
    request.body?.cancel().catch(() => {});
    return { refusal: bodyTooLargeResponse(path) };
  }
  const charset = request.body ? unreadableCharset(request.headers.get('content-type')) : undefined;
  if (charset !== undefined) {
    request.body?.cancel().catch(() => {});
    return { refusal: unreadableCharsetResponse(path, charset) };
  }
  const body = await readBodyText(request);
  if (body === TOO_LARGE) return { refusal: bodyTooLargeResponse(path) };
  const headers: Record<string, string> = {};
  // Headers iterates with lower-case names already.
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    request: { method: request.method.toUpperCase(), path, query: url.searchParams, headers, body, origin: url.origin },
  };
}

/**
 * Turns the mock's light {@link MockResponse} into a Web `Response`; the answer to a HEAD request has no body.
 * `stream`, when given, is sent as the body instead (a fault's cut or trickled body).
 */
export function toWebResponse(res: MockResponse, method = 'GET', stream?: ReadableStream<Uint8Array>): Response {
  // A null-body status must not carry a body, or the Response constructor throws.
  const nullBody = res.status === 204 || res.status === 205 || res.status === 304 || method.toUpperCase() === 'HEAD';
  const body = nullBody
    ? null
    : (stream ?? (typeof res.body === 'string' ? res.body : (res.body as Uint8Array<ArrayBuffer>)));
  return new Response(body, { status: res.status, headers: res.headers });
}

/**
 * The Web `Response` of an answer to `request`: an ordinary one, or a fault's wire form played as its nearest Web
 * form (mock/adapters/web-fault.ts), on `backend`'s clock when it has one.
 */
export function webAnswer(
  res: MockResponse,
  request: Request,
  backend: MockRequestHandler,
  hangEnd: HangEnd = 'network-error',
): Response | Promise<Response> {
  if (!res.fault?.wire) return toWebResponse(res, request.method);
  const clock: Clock = (backend as { clock?: Clock }).clock ?? systemClock;
  return playWebFault(
    res as MockResponse & { fault: { wire: WireForm } },
    request,
    clock,
    (answer, stream) => toWebResponse(answer, request.method, stream),
    hangEnd,
  );
}

const TOO_LARGE = Symbol('too large');

/** Reads the body as UTF-8 text, stopping (and cancelling the stream) as soon as it passes the limit. */
async function readBodyText(request: Request): Promise<string | undefined | typeof TOO_LARGE> {
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    text += decoder.decode(value, { stream: true });
  }
  text += decoder.decode();
  // An empty body (e.g. a POST with nothing in it) is "no body" to the routes, as it is on the node server.
  return size === 0 ? undefined : text;
}

/** Anything that answers the mock's light requests: a backend core or a full mock backend. */
export interface MockRequestHandler {
  /** Answers one light request. */
  handle(req: MockRequest): Promise<MockResponse>;
}

/** Answers a Web `Request` through `backend.handle`, refusing bodies over 1 MB before they reach it. */
export async function answerWebRequest(
  backend: MockRequestHandler,
  request: Request,
  pathPrefix = '',
  hangEnd: HangEnd = 'network-error',
): Promise<Response> {
  const converted = await toMockRequest(request, pathPrefix);
  const res = 'refusal' in converted ? converted.refusal : await backend.handle(converted.request);
  return webAnswer(res, request, backend, hangEnd);
}
