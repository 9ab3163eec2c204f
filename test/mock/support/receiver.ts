// A real webhook receiver for gateway tests: node:http on 127.0.0.1, port 0. It records every request and answers
// as the test says (a status, a hang until the gateway aborts, or the webhook toolkit's own handler).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { event: string; device_id: string; timestamp: number; data: Record<string, unknown> };
}

/**
 * How the receiver answers the n-th request (0-based): a status (and body), `hang` to never answer, or a promise of
 * a status, answered when it resolves (an attempt the test keeps in flight and answers later).
 */
export type Answer = Reply | 'hang' | Promise<Reply>;
type Reply = { status: number; body?: string };

/** A running receiver. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Changes how the next requests are answered. */
  answer(fn: (n: number, req: Received) => Answer): void;
  close(): Promise<void>;
}

/** Starts a receiver that answers 200 `{"status":"success"}` unless told otherwise. */
export async function startReceiver(
  answer: (n: number, req: Received) => Answer = () => ({ status: 200 }),
  path = '/hook',
): Promise<Receiver> {
  let respond = answer;
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Received = { headers: req.headers, body, json: safeJson(body) };
      const n = received.push(entry) - 1;
      const a = respond(n, entry);
      if (a === 'hang' || a instanceof Promise) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      }
      if (a === 'hang') return;
      const reply = (r: Reply) => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(r.body ?? '{"status":"success"}');
      };
      if (a instanceof Promise) void a.then(reply);
      else reply(a);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer(fn) {
      respond = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts a server around any node:http listener (e.g. `toNodeHandler(createWebhookHandler(...))`). */
export async function startNodeListener(
  listener: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that refuses connections (a server that was started and closed). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

function safeJson(text: string): Received['json'] {
  try {
    return JSON.parse(text);
  } catch {
    return { event: '', device_id: '', timestamp: 0, data: {} };
  }
}
