// `linkgate proxy`'s server: forwards every request to the upstream unchanged and streams the answer back with its
// own status, headers (names as sent) and bytes; copies of the bodies, up to a bound, are checked after the answer
// has gone, so checking adds no wait to the exchange.
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Exchange } from './exchange-check.js';

/** Options of {@link startCheckingProxy}. */
export interface CheckingProxyOptions {
  /** Where requests go: scheme, host and port (a path prefix is kept in front of each request's path). */
  upstream: URL;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bytes of each body kept for the check; longer bodies are forwarded whole and reported as too large to check. */
  maxCheckedBytes: number;
  /** Called once an exchange has been answered in full. */
  onExchange(exchange: Exchange): void;
  /** Called when the upstream could not be reached or broke off; the client got a 502 (or a cut connection). */
  onUpstreamError(method: string, path: string, message: string): void;
}

/** A running proxy. */
export interface CheckingProxy {
  /** `http://<host>:<port>` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A copy of a body's first bytes, up to a bound. */
class BodyCopy {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  tooLarge = false;
  constructor(private readonly limit: number) {}
  add = (chunk: Buffer) => {
    this.#size += chunk.length;
    if (this.#size > this.limit) this.tooLarge = true;
    else this.#chunks.push(chunk);
  };
  get text(): string | undefined {
    return this.tooLarge ? undefined : Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** Headers that describe one connection, not the message: each side of the proxy speaks its own (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/**
 * Raw headers without the hop-by-hop ones (and those the Connection header names); `framing` drops Transfer-Encoding
 * too, for an answer whose framing node writes for its own client (chunked to HTTP/1.1, closed to HTTP/1.0).
 */
function endToEnd(raw: string[], framing: boolean): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const name of (raw[i + 1] as string).split(',')) named.add(name.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || (framing && name === 'transfer-encoding')) continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

/** Headers as the checker reads them (last value wins; names as sent). */
function headerRecord(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) out[raw[i] as string] = raw[i + 1] as string;
  return out;
}

/** Starts the proxy; resolves once it listens. */
export async function startCheckingProxy(options: CheckingProxyOptions): Promise<CheckingProxy> {
  const { upstream } = options;
  const https = upstream.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  // Upstream connections are kept and reused, as a client's own would be.
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const prefix = upstream.pathname.replace(/\/$/, '');

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    // Every header as sent, in order, but Host: the upstream's name, as any reverse proxy sends it.
    // The client's Connection (close, keep-alive) is its own: the proxy keeps its upstream connection open.
    const headers: string[] = [];
    const sent = endToEnd(req.rawHeaders, false);
    for (let i = 0; i < sent.length; i += 2) {
      if ((sent[i] as string).toLowerCase() === 'host') continue;
      headers.push(sent[i] as string, sent[i + 1] as string);
    }
    headers.push('Host', upstream.host);
    const requestCopy = new BodyCopy(options.maxCheckedBytes);
    const upstreamReq = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method,
      // The root is the upstream's own path as given (a receiver's /webhooks), not /webhooks/; deeper paths follow it.
      path: path === '/' || path.startsWith('/?') ? upstream.pathname + path.slice(1) : prefix + path,
      headers,
      agent,
      // Headers are sent as given (but the connection's own): no added Host.
      setHost: false,
    });
    let answered = false;
    upstreamReq.on('response', (answer: IncomingMessage) => {
      answered = true;
      const responseCopy = new BodyCopy(options.maxCheckedBytes);
      // A body ended by closing (no length, not chunked, as HTTP/1.0 servers send it) is sent on the same way.
      const status = answer.statusCode ?? 502;
      const bodiless = method === 'HEAD' || status === 204 || status === 304 || status < 200;
      const delimited =
        answer.headers['content-length'] !== undefined || answer.headers['transfer-encoding'] !== undefined;
      if (!delimited && !bodiless) res.useChunkedEncodingByDefault = false;
      res.writeHead(status, answer.statusMessage, endToEnd(answer.rawHeaders, true));
      res.flushHeaders();
      answer.on('data', responseCopy.add);
      answer.pipe(res);
      answer.on('end', () => {
        const pathOnly = path.split('?')[0] as string;
        // After the last byte went out: the check never delays the answer.
        setImmediate(() => {
          try {
            options.onExchange({
              method,
              url: path,
              requestHeaders: headerRecord(req.rawHeaders),
              requestBody: requestCopy.text,
              status: answer.statusCode ?? 0,
              responseHeaders: headerRecord(answer.rawHeaders),
              responseBody: responseCopy.text,
              responseTooLarge: responseCopy.tooLarge,
            });
          } catch (error) {
            options.onUpstreamError(method, pathOnly, `the check failed: ${(error as Error).message}`);
          }
        });
      });
      answer.on('error', () => res.destroy());
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      const pathOnly = path.split('?')[0] as string;
      const reason = error.code ?? error.message;
      options.onUpstreamError(
        method,
        pathOnly,
        `${upstream.origin} ${answered ? 'broke off the answer' : 'could not be reached'} (${reason})`,
      );
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = JSON.stringify({
        error: 1,
        message: `linkgate proxy: the upstream ${upstream.origin} could not be reached (${reason}).`,
      });
      res.writeHead(502, { 'Content-Type': 'application/json; charset=utf-8', 'X-Linkgate-Proxy': 'upstream-error' });
      res.end(body);
    });
    // A client that leaves stops the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.on('data', requestCopy.add);
    req.pipe(upstreamReq);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A listen failure as a sentence naming the flag to change. */
export function checkingProxyListenError(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use; pass --port with another port, or --port 0 for any free one.`;
  if (code === 'EACCES') return `Not allowed to listen on port ${port}; use a port above 1023.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `--host ${host} is not an address of this machine; use 127.0.0.1 or 0.0.0.0.`;
  return `Could not start the proxy on ${host}:${port}: ${(error as Error).message}`;
}
