import http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import {
  createTestDelivery,
  createWebhookHandler,
  type NodeWebhookHandler,
  toNodeHandler,
} from '../../src/webhooks/index.js';
import type { NodeRequestLike } from '../../src/webhooks/node-request.js';
import { messageReceived, TENANT_SECRET } from './support/fixtures.js';
import { loopbackServers } from './support/loopback-server.js';

/** Starts a real node:http server on 127.0.0.1 running a listener; resolves with its base URL. */
const serve = loopbackServers();

const asListener =
  (handler: NodeWebhookHandler): http.RequestListener =>
  (req, res) => {
    void handler(req as unknown as NodeRequestLike, res);
  };

/** Sends a body in chunks without Content-Length, so only reading tells its size. */
function postChunked(url: string, headers: Record<string, string>, chunk: Buffer, times: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < times) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('toNodeHandler serves the fetch handler on node:http and Express', () => {
  it('verifies and routes a delivery sent over a real socket', async () => {
    const handled = vi.fn();
    const url = await serve(
      asListener(toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET, on: { 'message.received': handled } }))),
    );
    const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    const response = await fetch(`${url}/webhooks`, { method: 'POST', headers: d.headers, body: d.body });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'success' });
    expect(handled).toHaveBeenCalledWith(expect.objectContaining({ data: messageReceived.data }), expect.anything());
  });

  it('answers 401 with the JSON reason for a wrong secret', async () => {
    const url = await serve(asListener(toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET }))));
    const d = createTestDelivery({ event: messageReceived, secret: 'whsec_live_11111111111111111111111111111111' });
    const response = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'secret_mismatch' });
  });

  it('refuses a declared Content-Length over 1 MB with 413 before reading', async () => {
    const url = await serve(asListener(toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET }))));
    const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    const response = await fetch(url, { method: 'POST', headers: d.headers, body: new Uint8Array(1_048_577) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('stops reading a chunked body once it passes 1 MB and still answers 413', async () => {
    let bytesSeenByHandler = -1;
    const handler = createWebhookHandler({ secret: TENANT_SECRET });
    const url = await serve(
      asListener(
        toNodeHandler(
          Object.assign(
            async (request: Request) => {
              bytesSeenByHandler = (await request.arrayBuffer()).byteLength;
              return handler(request);
            },
            { maxBodyBytes: handler.maxBodyBytes },
          ),
        ),
      ),
    );
    const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    const result = await postChunked(url, d.headers, Buffer.alloc(64 * 1024, 0x20), 40);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'body_too_large' });
    expect(bytesSeenByHandler).toBe(-1);
  });

  it('refuses a body limit that is not a positive integer, naming the option, instead of turning the 413 off', () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET });
    for (const bad of ['big', 0, -1, 1.5, Number.NaN]) {
      expect(() => toNodeHandler(handler, { maxBodyBytes: bad as number })).toThrow(
        `toNodeHandler options.maxBodyBytes must be a positive integer number of bytes; got ${String(bad)}.`,
      );
    }
  });

  it('uses a raw Buffer body that express.raw() already read', async () => {
    const handled = vi.fn();
    const adapter = toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET, on: { 'message.received': handled } }));
    const url = await serve(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      Object.assign(req, { body: Buffer.concat(chunks) });
      void adapter(req as unknown as NodeRequestLike, res);
    });
    const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    expect((await fetch(url, { method: 'POST', headers: d.headers, body: d.body })).status).toBe(200);
    expect(handled).toHaveBeenCalledOnce();
  });

  it('explains how to fix it when express.json() consumed the body', async () => {
    const adapter = toNodeHandler(createWebhookHandler({ secret: TENANT_SECRET }));
    const url = await serve(async (req, res) => {
      let text = '';
      for await (const c of req) text += c;
      Object.assign(req, { body: JSON.parse(text) });
      void adapter(req as unknown as NodeRequestLike, res);
    });
    const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    const response = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'raw_body_required' });
    expect(body.message).toMatch(/before express\.json\(\)/);
  });
});
