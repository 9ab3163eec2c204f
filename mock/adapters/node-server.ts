import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Clock, systemClock } from '../../src/shared/clock.js';
import { type BackendCore, createBackendCore, type MockBackendOptions } from '../backend.js';
import { unreadableCharset, unreadableCharsetResponse } from '../http/body-charset.js';
import { bodyTooLargeResponse, declaresTooLarge, MAX_BODY_BYTES } from '../http/body-limit.js';
import type { InjectedFault, MockRequest, MockResponse, WireForm } from '../http/types.js';
import { createInspectorServer } from '../inspector/inspector-server.js';
import { acceptFirst } from './accept-first.js';
import { EXPOSED_HEADERS, isPreflight, preflightHeaders } from './cors.js';
import { heldOpen, playNodeFault } from './node-fault.js';
import { pathWithoutSecret, type RequestLogEntry } from './request-log.js';
import type { MockRequestHandler } from './web.js';

const NODE_HTTP = 'node:http';

/**
 * The accept queue asked of `listen`: Node's default (511) overflowed at 5,000 connections opened at once, and a
 * dropped SYN is retried by the client only after 1, 3, 7, 15 s (requests timed out before they were accepted). The
 * kernel caps it at `net.core.somaxconn` (4096 on Linux since 5.4).
 */
export const LISTEN_BACKLOG = 65_535;

/** Options of {@link startMockServer}: where to listen, and either a backend or the options to create one. */
export interface StartMockServerOptions<B extends MockRequestHandler = BackendCore> extends MockBackendOptions {
  /**
   * TCP port; `0` lets the OS choose a free one (read it from `url`).
   * @default 0
   */
  port?: number;
  /**
   * Interface to bind. The default keeps the mock off the network; pass `0.0.0.0` to reach it from other machines.
   * @default '127.0.0.1'
   */
  host?: string;
  /** A backend to serve (e.g. one your tests also arrange through `store`); when absent one is created from the other options. */
  backend?: B;
  /**
   * Told about every answered request once its last byte is written (method, path, status, time), e.g. to log it;
   * the `linkgate mock` command prints these. A listener that throws is ignored.
   * @default none
   */
  onResponse?: (entry: RequestLogEntry) => void;
}

/** A running standalone mock server. */
export interface MockServer<B extends MockRequestHandler = BackendCore> {
  /** Base URL of the server, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The backend answering the requests. */
  backend: B;
  /**
   * Stops listening, lets requests in flight finish, closes idle keep-alive connections and connections that have
   * sent nothing yet; resolves when closed.
   */
  close(): Promise<void>;
}

/**
 * Serves a new mock backend on its own clock over plain `node:http`, with CORS; `server.backend.clock` keeps the
 * clock's type, so a ManualClock's `advance` is at hand.
 *
 * @example
 * const server = await startMockServer({ clock: new ManualClock() });
 * await server.backend.clock.advance(60_000);
 */
export async function startMockServer<C extends Clock>(
  options: StartMockServerOptions<BackendCore<C>> & { clock: C; backend?: undefined },
): Promise<MockServer<BackendCore<C>>>;
/**
 * Serves a mock backend over plain `node:http`, with CORS so browser apps on other origins can call it.
 *
 * @example
 * const server = await startMockServer({ port: 4010, seed: 'demo' });
 * console.log(server.url, server.backend.adminKey);
 * await server.close();
 */
export async function startMockServer<B extends MockRequestHandler = BackendCore>(
  options?: StartMockServerOptions<B>,
): Promise<MockServer<B>>;
export async function startMockServer<B extends MockRequestHandler = BackendCore>(
  options: StartMockServerOptions<B> = {},
): Promise<MockServer<B>> {
  const { port = 0, host = '127.0.0.1', backend: given, onResponse, ...backendOptions } = options;
  const backend = given ?? (createBackendCore(backendOptions) as unknown as B);
  // Loaded here, by a computed name: `linkgate/mock` re-exports this function and must still bundle and load in
  // browsers (setupWorker), where bundlers would otherwise try to resolve node:http.
  // process.getBuiltinModule (Node 22.3+) hands over node:http without building its ESM namespace, which runs every
  // lazy export getter and loads undici and zlib on the way: ~25 ms of the CLI's start-up (issue 23).
  const { createServer } = (globalThis.process?.getBuiltinModule?.(NODE_HTTP) ??
    (await import(NODE_HTTP))) as typeof import('node:http');
  // The inspector (page at `/`, live feed at `/__mock/events`) needs the whole backend, not just a request handler.
  const inspector = isBackendCore(backend) ? createInspectorServer(backend) : undefined;
  // The control token never reaches a log, wherever in the request target a client put it.
  const token = isBackendCore(backend) ? () => backend.gateway.controlToken : () => '';
  const report =
    onResponse &&
    ((entry: RequestLogEntry) => {
      // The entry is this request's own: its path is replaced, not copied.
      entry.path = pathWithoutSecret(entry.path, token());
      onResponse(entry);
    });
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (report) reportWhenAnswered(req, res, report);
    if (inspector) {
      if (inspector.handle(req, res, pathOf(req.url))) return;
      // What a request changed reaches the inspector's readers once it is answered.
      if (inspector.feed.readers > 0) res.once('finish', inspector.touch);
    }
    serve(backend, req, res);
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, handler);
  // Node's closeIdleConnections() leaves a connection alone until its first request, and undici opens one ahead
  // after a streamed answer is aborted (the inspector feed): close() would wait ~3 s for the client to drop it.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A burst of new connections is taken in before the open ones are read again (Node accepts one per poll).
  acceptFirst(server, sockets);
  // `Expect: 100-continue` (curl sends it for bodies over 1 MB): a body the mock would refuse is refused before the
  // client sends it, instead of inviting it with 100 Continue and then cutting the upload short.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = refusalBeforeBody(req.headers, pathOf(req.url));
    if (refusal === undefined) {
      res.writeContinue();
      handler(req, res);
      return;
    }
    if (report) reportWhenAnswered(req, res, report);
    write(res, refusal, true);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://${urlHost((server.address() as AddressInfo).address)}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    backend,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Live feeds never end by themselves: end them, or close would wait for their readers forever.
        inspector?.close();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
        for (const socket of sockets) if (socket.bytesRead === 0 || heldOpen.has(socket)) socket.destroy();
      }),
  };
}

/** Calls `onResponse` when the answer's last byte is written (not for a client that went away before it). */
function reportWhenAnswered(req: IncomingMessage, res: ServerResponse, onResponse: (entry: RequestLogEntry) => void) {
  const started = performance.now();
  const report = () => {
    const path = loggedPath(req.url ?? '/');
    const authorization = req.headers.authorization;
    const fault = injected.get(res);
    try {
      onResponse({
        method: req.method ?? 'GET',
        path,
        // A fault that sent no status line (a reset, a hang) is logged with status 0.
        status: fault?.wire && !res.headersSent ? 0 : res.statusCode,
        ms: performance.now() - started,
        authorization,
        ...(fault && { fault: faultNote(fault, res.writableFinished) }),
      });
    } catch {
      // A faulty log listener must not break the server.
    }
  };
  // `on`, not `once`: the response finishes once, and `once` wraps the listener in another function per request.
  res.on('finish', report);
  reporters.set(res, report);
}

/** The fault that changed each answer, for its log line. */
const injected = new WeakMap<ServerResponse, InjectedFault>();
/** Each logged response's reporter, for answers a fault ends without finishing them. */
const reporters = new WeakMap<ServerResponse, () => void>();

/** `f2 (reset)`, `f3 "slow db" (trickle, cut short by the client)`: which rule, and how it ended. */
function faultNote(fault: InjectedFault, finished: boolean): string {
  const name = fault.name === undefined ? '' : ` ${JSON.stringify(fault.name)}`;
  const end = fault.wire?.form === 'trickle' && !finished ? ', cut short by the client' : '';
  return `${fault.rule}${name} (${fault.kind}${end})`;
}

/**
 * The path of a request target as the log shows it: cut at the query and at a fragment. Browsers never send a
 * fragment, but a hand-written request line can (`GET /#token=ctl_… HTTP/1.1`), and the inspector's link carries the
 * control token there, which must never reach a log.
 */
function loggedPath(target: string): string {
  let end = target.length;
  for (let i = 0; i < end; i++) {
    const c = target.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) end = i;
  }
  return target.slice(0, end);
}

/** A backend with a store and a gateway (not just a request handler), which the inspector can show. */
function isBackendCore(backend: MockRequestHandler): backend is MockRequestHandler & BackendCore {
  const b = backend as Partial<BackendCore>;
  return b.store !== undefined && typeof b.gateway?.on === 'function';
}

/** The host part of the URL for a bound address: a wildcard bind is reached through loopback. */
function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

/** Shared by requests without a query string, so they allocate no URLSearchParams; mutating it throws. */
const EMPTY_QUERY = new URLSearchParams();
for (const method of ['append', 'delete', 'set', 'sort'] as const) {
  Object.defineProperty(EMPTY_QUERY, method, {
    value: () => {
      throw new TypeError('MockRequest.query of a request without a query string is read-only; copy it first.');
    },
  });
}

function serve(backend: MockRequestHandler, req: IncomingMessage, res: ServerResponse): void {
  const headers = req.headers;
  if (isPreflight(req.method, headers)) {
    res.writeHead(204, preflightHeaders(headers['access-control-request-headers']));
    res.end();
    return;
  }
  const rawUrl = req.url ?? '/';
  let path: string;
  let query: URLSearchParams;
  if (rawUrl.charCodeAt(0) !== 47 /* '/' */) {
    // Absolute-form request target (sent through a proxy): let URL split it.
    const parsed = new URL(rawUrl, 'http://localhost');
    path = parsed.pathname;
    query = parsed.searchParams;
  } else {
    const q = rawUrl.indexOf('?');
    path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    query = q === -1 || q === rawUrl.length - 1 ? EMPTY_QUERY : new URLSearchParams(rawUrl.slice(q + 1));
  }
  const mockRequest: MockRequest = {
    method: req.method ?? 'GET',
    path,
    query,
    // Node already lower-cases header names and joins repeated ones; only set-cookie stays an array.
    headers: headers as Record<string, string | undefined>,
    body: undefined,
    origin: originOf(headers.host, req),
  };
  const length = headers['content-length'];
  if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) {
    answer(backend, mockRequest, res);
    return;
  }
  const refusal = refusalBeforeBody(headers, path);
  if (refusal !== undefined) {
    refuse(req, res, refusal);
    return;
  }
  readBody(backend, mockRequest, req, res);
}

function readBody(backend: MockRequestHandler, mockRequest: MockRequest, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refused = true;
      chunks.length = 0;
      refuse(req, res, bodyTooLargeResponse(mockRequest.path));
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (refused) return;
    mockRequest.body = size === 0 ? undefined : Buffer.concat(chunks, size).toString('utf8');
    answer(backend, mockRequest, res);
  });
  req.on('error', () => {
    // The client went away mid-body: there is no one to answer.
    refused = true;
  });
}

/** How much of a refused body is still read and thrown away, so the client gets to read the answer. */
const DRAIN_LIMIT_BYTES = 32 * MAX_BODY_BYTES;
/** How long a refused body may keep coming before the connection is cut. */
const DRAIN_LIMIT_MS = 5_000;

/** The answer to a request refused on its headers alone (a body declared over 1 MB, or in a charset not UTF-8). */
function refusalBeforeBody(headers: IncomingMessage['headers'], path: string): MockResponse | undefined {
  if (declaresTooLarge(headers['content-length'])) return bodyTooLargeResponse(path);
  const charset = unreadableCharset(headers['content-type']);
  return charset === undefined ? undefined : unreadableCharsetResponse(path, charset);
}

/**
 * Answers a refused body at once, then reads (and discards) the rest of it, bounded in bytes and time: a client still
 * uploading would otherwise meet a reset (EPIPE, "connection reset") before it reads the answer. Once the body is in,
 * the connection stays usable; past the bounds it is cut.
 */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: MockResponse): void {
  write(res, refusal, false);
  let drained = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DRAIN_LIMIT_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) {
      clearTimeout(timer);
      cut();
    }
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

function answer(backend: MockRequestHandler, mockRequest: MockRequest, res: ServerResponse): void {
  backend
    .handle(mockRequest)
    .then((mockResponse) =>
      mockResponse.fault ? writeFaulted(backend, res, mockResponse) : write(res, mockResponse, false),
    )
    .catch((error: unknown) => {
      try {
        write(res, internalError(error), false);
      } catch {
        res.destroy();
      }
    });
}

/** An answer a fault changed: noted for the log, and played on the connection when it has a wire form. */
function writeFaulted(backend: MockRequestHandler, res: ServerResponse, mockResponse: MockResponse): void {
  const fault = mockResponse.fault!;
  injected.set(res, fault);
  if (!fault.wire) {
    write(res, mockResponse, false);
    return;
  }
  if (res.headersSent || res.destroyed) return;
  const clock = (backend as { clock?: Clock }).clock ?? systemClock;
  const report = reporters.get(res);
  let reported = false;
  playNodeFault(
    res,
    mockResponse as MockResponse & { fault: { wire: WireForm } },
    headerList(mockResponse, false),
    clock,
    () => {
      // A trickle that ran to its end was logged on 'finish'.
      if (reported || res.writableFinished) return;
      reported = true;
      report?.();
    },
  );
}

function write(res: ServerResponse, mockResponse: MockResponse, close: boolean): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(mockResponse.status, headerList(mockResponse, close));
  res.end(mockResponse.body);
}

/** One flat [name, value, ...] list for writeHead: cheaper than a setHeader call per header. */
function headerList(mockResponse: MockResponse, close: boolean): string[] {
  const body = mockResponse.body;
  const headers = mockResponse.headers;
  const flat: string[] = [
    'access-control-allow-origin',
    '*',
    'access-control-expose-headers',
    EXPOSED_HEADERS,
    'content-length',
    String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  ];
  for (const name in headers) flat.push(name, headers[name]!);
  if (close) flat.push('connection', 'close');
  return flat;
}

/** The mock never means to answer 500; if the core throws, say so plainly instead of dropping the connection. */
function internalError(error: unknown): MockResponse {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: 1, message: `The mock backend failed on this request (a mock bug): ${detail}` }),
  };
}

let lastHost: string | undefined;
let lastOrigin = '';

/** `http://<Host header>`; cached because one client sends the same Host on every request. */
function originOf(host: string | undefined, req: IncomingMessage): string {
  if (host === lastHost) return lastOrigin;
  const address = req.socket.localAddress ?? '127.0.0.1';
  const origin = host ? `http://${host}` : `http://${urlHost(address)}:${req.socket.localPort}`;
  if (host) {
    lastHost = host;
    lastOrigin = origin;
  }
  return origin;
}
