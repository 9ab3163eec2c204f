import type { NodeHeaders } from './header-reader.js';
import { NodeRequestBody } from './node-body.js';
import type { NodeRequestLike } from './node-request.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from './raw-body.js';
import { WebhookVerificationError } from './webhook-errors.js';

/** The parts of Node's `ServerResponse` the adapter uses. */
export interface NodeResponseLike {
  /** The status to send. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and finishes the response. */
  end(chunk?: Uint8Array | string): unknown;
  /** True once headers went out. */
  readonly headersSent?: boolean;
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Stop reading and answer 413 past this many bytes. Defaults to the handler's own limit; for a handler that does
   * not state one, 1 MB plus 64 KB of headroom, leaving the exact decision to the handler.
   */
  maxBodyBytes?: number;
  /**
   * How long the body may take to arrive, in ms from the request's arrival; past it reading stops, the handler's read
   * fails with `body_timeout` (408) and, once answered, the connection is closed. Defaults to the handler's own
   * `bodyTimeoutMs`.
   * @default 8000
   */
  bodyTimeoutMs?: number;
}

/** A `(req, res)` listener for `node:http` and Express (`next` is called only for errors of the adapter itself). */
export type NodeWebhookHandler = (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void>;

const HEADROOM = 64 * 1024;

/**
 * Adapts a fetch-style handler (from {@link createWebhookHandler}) to `node:http` and Express. The handler gets the
 * body as a stream read only when it asks, so a delivery refused on its headers (no or wrong secret) is answered 401
 * without reading a byte of it; the body is bounded in size (413) and in time (408); and a body left unread when the
 * answer goes out is let flow to nowhere for a moment, then its connection is closed, so it cannot hold the receiver.
 * It uses `req.rawBody` / a Buffer `req.body` when a framework already read the body, and a body a parser already
 * consumed fails the handler's read with `raw_body_required`, which the handler reports to `onError` once.
 *
 * @example
 * http.createServer(toNodeHandler(createWebhookHandler({ secret, on }))).listen(3000);
 * // Express: mount it before express.json(), or on its own route:
 * app.post('/webhooks', toNodeHandler(handler));
 */
export function toNodeHandler(
  handler: ((request: Request) => Promise<Response>) & { maxBodyBytes?: number; bodyTimeoutMs?: number },
  options: NodeHandlerOptions = {},
): NodeWebhookHandler {
  const maxBytes = options.maxBodyBytes ?? handler.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES + HEADROOM;
  // A limit that is not a number would compare false against every size and silently turn the 413 off.
  if (!Number.isInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError(
      `toNodeHandler options.maxBodyBytes must be a positive integer number of bytes; got ${String(maxBytes)}.`,
    );
  }
  const timeoutMs = options.bodyTimeoutMs ?? handler.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new TypeError(
      `toNodeHandler options.bodyTimeoutMs must be a positive integer number of milliseconds; got ${String(timeoutMs)}.`,
    );
  }
  return async (req, res, next) => {
    const body = new NodeRequestBody(req, { maxBytes, timeoutMs });
    try {
      const method = req.method ?? 'POST';
      const init: RequestInit & { duplex?: 'half' } = {
        method,
        headers: toHeaders(req.headers),
        body: method === 'GET' || method === 'HEAD' ? null : body.stream,
        // Required by fetch for a streamed request body.
        duplex: 'half',
      };
      await send(res, await handler(new Request(requestUrl(req.url), init)));
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        await send(res, Response.json(error.toJSON(), { status: error.status }));
      } else if (next) next(error);
      else if (!res.headersSent) {
        await send(
          res,
          Response.json(
            { status: 'error', code: 'internal_error', message: 'The webhook receiver failed.' },
            { status: 500 },
          ),
        );
      }
    } finally {
      body.settle();
    }
  };
}

function requestUrl(path: string | undefined): string {
  try {
    return new URL(path ?? '/', 'http://localhost').href;
  } catch {
    return 'http://localhost/';
  }
}

function toHeaders(headers: NodeHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2 pseudo-headers (":path") are not valid header names.
    if (value === undefined || name.startsWith(':')) continue;
    try {
      if (typeof value === 'string') out.set(name, value);
      else for (const v of value) out.append(name, v);
    } catch {
      // A header the fetch Headers class rejects is dropped; gateway headers are plain ASCII.
    }
  }
  return out;
}

async function send(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(new Uint8Array(await response.arrayBuffer()));
}
