import http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import {
  createTestDelivery,
  createWebhookHandler,
  toNodeHandler,
  verifyWebhook,
  type WebhookRequestHandler,
} from '../../src/webhooks/index.js';
import type { NodeRequestLike } from '../../src/webhooks/node-request.js';
import { DEFAULT_BODY_TIMEOUT_MS } from '../../src/webhooks/raw-body.js';
import { clockAtNow, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';
import { trickle } from './support/hostile-client.js';
import { loopbackServers } from './support/loopback-server.js';

const listen = loopbackServers();

/** Serves `handler` through toNodeHandler on 127.0.0.1; resolves with its `/webhooks` URL. */
async function serve(handler: Parameters<typeof toNodeHandler>[0], options: Parameters<typeof toNodeHandler>[1] = {}) {
  const adapter = toNodeHandler(handler, options);
  return `${await listen((req, res) => void adapter(req as unknown as NodeRequestLike, res))}/webhooks`;
}

/** A handler that records whether it was given a body to read and how much of it it read. */
function observed(handler: WebhookRequestHandler) {
  const seen = { bodyBytesRead: 0 };
  const wrapped = Object.assign(
    async (request: Request) => {
      // Count what the real handler pulls out of the streamed body.
      const body = request.body;
      if (!body) return handler(request);
      const counting = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen.bodyBytesRead += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      return handler(new Request(request, { body: counting, duplex: 'half' } as RequestInit));
    },
    { maxBodyBytes: handler.maxBodyBytes, bodyTimeoutMs: handler.bodyTimeoutMs },
  );
  return { wrapped, seen };
}

/** A body that never ends: one chunk, then silence; `cancelled` tells whether the reader gave up on it. */
function endlessBody() {
  const state = { cancelled: false, pulls: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++;
        if (state.pulls === 1) controller.enqueue(new TextEncoder().encode('{"event":'));
        return new Promise(() => {});
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const delivery = () => createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
const withoutSecret = () => {
  const { 'X-Service-Secret': _secret, ...headers } = delivery().headers;
  return headers;
};

describe('toNodeHandler checks the secret before reading a byte of the body', () => {
  it('answers 401 at once to a client with no secret whose body never ends, and closes its connection soon after', async () => {
    const { wrapped, seen } = observed(createWebhookHandler({ secret: TENANT_SECRET }));
    const url = await serve(wrapped);
    const client = trickle(url, withoutSecret(), { burstBytes: 64 * 1024 });
    const answer = await client.answered;
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'missing_secret_header' });
    expect(answer.ms).toBeLessThan(3000); // at once: a body that never ends would hold it forever
    expect(seen.bodyBytesRead).toBe(0);
    // The unread rest flows to nowhere for a moment (so the client can read the 401), then the connection is cut.
    expect(await client.closed).toBeLessThan(answer.ms + 3000);
  });

  it('answers 401 at once to a wrong secret whose body never ends, without reading it', async () => {
    const { wrapped, seen } = observed(createWebhookHandler({ secret: TENANT_SECRET }));
    const url = await serve(wrapped);
    const d = createTestDelivery({ event: messageReceived, secret: 'whsec_live_11111111111111111111111111111111' });
    const client = trickle(url, d.headers, { chunkBytes: 64, everyMs: 20 });
    const answer = await client.answered;
    client.stop();
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'secret_mismatch' });
    expect(answer.ms).toBeLessThan(3000); // at once: a body that never ends would hold it forever
    expect(seen.bodyBytesRead).toBe(0);
  });

  it('keeps a connection whose refused body was complete open for the next delivery', async () => {
    const handled = vi.fn();
    const url = await serve(createWebhookHandler({ secret: TENANT_SECRET, on: { 'message.received': handled } }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const d = delivery();
    const refused = await post(withoutSecret(), d.body);
    const accepted = await post(d.headers, d.body);
    agent.destroy();
    expect([refused.status, accepted.status]).toEqual([401, 200]);
    expect(accepted.socket).toBe(refused.socket);
    expect(handled).toHaveBeenCalledOnce();
  });
});

describe('toNodeHandler bounds the time a body may take', () => {
  it('answers 408 body_timeout to a right-secret body still trickling at the bound, and closes the connection', async () => {
    const url = await serve(createWebhookHandler({ secret: TENANT_SECRET, bodyTimeoutMs: 400 }));
    const client = trickle(url, delivery().headers, { chunkBytes: 16, everyMs: 20 });
    const answer = await client.answered;
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_timeout' });
    expect(JSON.parse(answer.body).message).toMatch(/within 400 ms.*raise bodyTimeoutMs/);
    expect(answer.ms).toBeGreaterThanOrEqual(390);
    expect(answer.ms).toBeLessThan(4000); // far below the 8 s default it would otherwise wait
    expect(await client.closed).toBeLessThan(answer.ms + 3000);
  });

  it('takes its own bodyTimeoutMs over the handler’s, for fetch handlers of other frameworks', async () => {
    const url = await serve(createWebhookHandler({ secret: TENANT_SECRET }), { bodyTimeoutMs: 300 });
    const client = trickle(url, delivery().headers, { chunkBytes: 16, everyMs: 20 });
    const answer = await client.answered;
    expect(answer.status).toBe(408);
    expect(answer.ms).toBeLessThan(DEFAULT_BODY_TIMEOUT_MS / 2);
    client.stop();
  });

  it('refuses a body time limit that is not a positive integer, naming the option', () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET });
    for (const bad of [0, -1, 1.5, Number.NaN, 'slow']) {
      expect(() => toNodeHandler(handler, { bodyTimeoutMs: bad as number })).toThrow(
        `toNodeHandler options.bodyTimeoutMs must be a positive integer number of milliseconds; got ${String(bad)}.`,
      );
      expect(() => createWebhookHandler({ secret: TENANT_SECRET, bodyTimeoutMs: bad as number })).toThrow(
        'options.bodyTimeoutMs must be a positive integer number of milliseconds',
      );
    }
  });
});

describe('the Request path bounds the time a body may take', () => {
  const headers = () => createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S }).headers;

  it('answers 408 after bodyTimeoutMs (8 s by default) to a right-secret body that never ends, and cancels it', async () => {
    const clock = clockAtNow();
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock });
    const { stream, state } = endlessBody();
    let answered: Response | undefined;
    const pending = handler(
      new Request('https://receiver.test/webhooks', {
        method: 'POST',
        headers: headers(),
        body: stream,
        duplex: 'half',
      } as RequestInit),
    ).then((r) => {
      answered = r;
      return r;
    });
    await clock.advance(DEFAULT_BODY_TIMEOUT_MS - 1);
    expect(answered).toBeUndefined();
    await clock.advance(1);
    const response = await pending;
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'body_timeout' });
    expect(state.cancelled).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('refuses a missing secret at once without pulling the never-ending body', async () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow() });
    const { stream, state } = endlessBody();
    const { 'X-Service-Secret': _secret, ...noSecret } = headers();
    const response = await handler(
      new Request('https://receiver.test/webhooks', {
        method: 'POST',
        headers: noSecret,
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(401);
    expect(state.pulls).toBe(0);
  });

  it('bounds verifyWebhook(request) too, with bodyTimeoutMs', async () => {
    const clock = clockAtNow();
    const { stream } = endlessBody();
    const verifying = verifyWebhook(
      new Request('https://receiver.test/webhooks', {
        method: 'POST',
        headers: headers(),
        body: stream,
        duplex: 'half',
      } as RequestInit),
      { secret: TENANT_SECRET, clock, bodyTimeoutMs: 50 },
    );
    const outcome = verifying.catch((e: unknown) => e);
    await clock.advance(50);
    expect(await outcome).toMatchObject({ code: 'body_timeout', status: 408 });
  });

  it('answers 400 body_incomplete when the body stream fails midway', async () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow(), onError: vi.fn() });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"ev'));
        controller.error(new TypeError('terminated'));
      },
    });
    const response = await handler(
      new Request('https://receiver.test/webhooks', {
        method: 'POST',
        headers: headers(),
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'body_incomplete' });
  });
});
