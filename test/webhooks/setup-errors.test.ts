import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HandlerFailureContext } from '../../src/webhooks/handler.js';
import {
  createTestDelivery,
  createWebhookHandler,
  toNodeHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import type { NodeRequestLike } from '../../src/webhooks/node-request.js';
import { messageReceived, TENANT_SECRET } from './support/fixtures.js';

const servers: http.Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map((s) => {
      const closed = new Promise((r) => s.close(r));
      s.closeAllConnections();
      return closed;
    }),
  );
});

/** A node:http app that parses JSON before handing the request over, as express.json() mounted first does. */
async function serveAfterJsonParser(options: WebhookHandlerOptions): Promise<string> {
  const adapter = toNodeHandler(createWebhookHandler(options));
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    Object.assign(req, { body: JSON.parse(text) });
    void adapter(req as unknown as NodeRequestLike, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function deliver(url: string, secret = TENANT_SECRET): Promise<{ status: number; code: string }> {
  const d = createTestDelivery({ event: messageReceived, secret });
  const response = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
  return { status: response.status, code: ((await response.json()) as { code: string }).code };
}

describe('a receiver set up wrongly tells its own team, once per cause', () => {
  it('reports raw_body_required to onError once, though every delivery is answered 500', async () => {
    const onError = vi.fn<(error: unknown, context: HandlerFailureContext) => void>();
    const onRejected = vi.fn();
    const url = await serveAfterJsonParser({ secret: TENANT_SECRET, onError, onRejected });
    const answers = [await deliver(url), await deliver(url), await deliver(url)];
    expect(answers).toEqual(Array(3).fill({ status: 500, code: 'raw_body_required' }));
    expect(onError).toHaveBeenCalledOnce();
    const [error, context] = onError.mock.calls[0]!;
    expect(error).toMatchObject({
      code: 'raw_body_required',
      message: expect.stringMatching(/before express\.json\(\)/),
    });
    expect(context).toEqual({ acknowledged: false, setup: true });
    expect(onRejected).toHaveBeenCalledTimes(3);
  });

  it('logs it once to console.error when no onError is given, saying what to change', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const url = await serveAfterJsonParser({ secret: TENANT_SECRET });
    for (let i = 0; i < 3; i++) expect((await deliver(url)).status).toBe(500);
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0]![0])).toMatch(
      /^linkgate\/webhooks: the webhook receiver is set up wrongly .*\(raw_body_required\): .*Mount the webhook route before express\.json\(\)/,
    );
    expect(String(log.mock.calls[0]![0])).not.toContain(TENANT_SECRET);
  });

  it('reports again from another handler: "once" is per handler instance', async () => {
    const onError = vi.fn();
    const first = await serveAfterJsonParser({ secret: TENANT_SECRET, onError });
    const second = await serveAfterJsonParser({ secret: TENANT_SECRET, onError });
    await deliver(first);
    await deliver(first);
    await deliver(second);
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('answers a stranger 401 before looking at the body, and reports nothing', async () => {
    const onError = vi.fn();
    const url = await serveAfterJsonParser({ secret: TENANT_SECRET, onError });
    expect(await deliver(url, 'whsec_live_11111111111111111111111111111111')).toEqual({
      status: 401,
      code: 'secret_mismatch',
    });
    expect(onError).not.toHaveBeenCalled();
  });

  it('reports a Request whose body was read before the handler got it (e.g. c.req.json() first in Hono)', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TENANT_SECRET, onError });
    const answers: number[] = [];
    for (let i = 0; i < 2; i++) {
      const request = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET }).request;
      await request.json();
      const response = await handler(request);
      answers.push(response.status);
      expect(await response.json()).toMatchObject({
        code: 'raw_body_required',
        message: expect.stringMatching(/already read \(request\.bodyUsed\).*request\.clone\(\)/),
      });
    }
    expect(answers).toEqual([500, 500]);
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![1]).toEqual({ acknowledged: false, setup: true });
  });

  it('reports a request stream read to its end with nothing kept', async () => {
    const onError = vi.fn();
    const adapter = toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET, onError }));
    const server = http.createServer(async (req, res) => {
      for await (const _chunk of req) {
        // Read and dropped, as a logging middleware that forgets to keep the body would.
      }
      void adapter(req as unknown as NodeRequestLike, res);
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    expect(await deliver(url)).toEqual({ status: 500, code: 'raw_body_required' });
    expect(onError.mock.calls[0]![0]).toMatchObject({
      message: expect.stringMatching(/already read to its end.*req\.rawBody/),
    });
  });
});
