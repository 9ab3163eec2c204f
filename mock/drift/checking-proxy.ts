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
  /** Bytes all kept copies may hold at once; bodies that come when it is spent are forwarded but not checked. */
  copyBudgetBytes: number;
  /** Called once an exchange has been answered in full. */
  onExchange(exchange: Exchange): void;
  /** Called instead of onExchange for an exchange whose body came when the copy budget was spent. */
  onNotChecked(method: string, path: string, reason: string): void;
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

/** Bytes that copies of bodies may hold in all, across the exchanges in flight. */
class CopyBudget {
  #left: number;
  constructor(readonly total: number) {
    this.#left = total;
  }
  take(bytes: number): boolean {
    if (bytes > this.#left) return false;
    this.#left -= bytes;
    return true;
  }
  give(bytes: number): void {
    this.#left += bytes;
  }
}

/** A copy of a body's first bytes, up to a bound per body and within the budget shared by every exchange in flight. */
class BodyCopy {
  #chunks: Buffer[] = [];
  #size = 0;
  #held = 0;
  tooLarge = false;
  /** The budget ran out while this body came: it is forwarded whole and not checked. */
  overBudget = false;
  constructor(
    private readonly limit: number,
    private readonly budget: CopyBudget,
  ) {}
  add = (chunk: Buffer) => {
    this.#size += chunk.length;
    if (this.tooLarge || this.overBudget) return;
    if (this.#size > this.limit) {
      this.tooLarge = true;
      this.release();
    } else if (!this.budget.take(chunk.length)) {
      this.overBudget = true;
      this.release();
    } else {
      this.#held += chunk.length;
      this.#chunks.push(chunk);
    }
  };
  get text(): string | undefined {
    return this.tooLarge || this.overBudget ? undefined : Buffer.concat(this.#chunks).toString('utf8');
  }
  /** Gives the bytes held back to the budget and drops them. */
  release(): void {
    this.budget.give(this.#held);
    this.#held = 0;
    this.#chunks = [];
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
  const budget = new CopyBudget(options.copyBudgetBytes);

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
    const requestCopy = new BodyCopy(options.maxCheckedBytes, budget);
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
      const responseCopy = new BodyCopy(options.maxCheckedBytes, budget);
      // An answer cut short is never checked: its copy goes back at once (a whole one, after its check).
      let whole = false;
      answer.on('end', () => {
        whole = true;
      });
      res.on('close', () => {
        if (!whole) responseCopy.release();
      });
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
          if (requestCopy.overBudget || responseCopy.overBudget) {
            requestCopy.release();
            responseCopy.release();
            options.onNotChecked(method, pathOnly, 'body over budget');
            return;
          }
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
          } finally {
            requestCopy.release();
            responseCopy.release();
          }
        });
      });
      answer.on('error', () => res.destroy());
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) requestCopy.release();
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
      if (res.writableFinished) return;
      upstreamReq.destroy();
      requestCopy.release();
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
