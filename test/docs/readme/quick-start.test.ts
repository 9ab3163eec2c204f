// The README's quick-start snippets, run as written (only imports adapted), so the front door cannot rot.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../../mock/index.js';
import { Linkgate, MessagingClient, NotFoundError } from '../../../src/index.js';
import { createTestDelivery, createWebhookHandler, toNodeHandler } from '../../../src/webhooks/index.js';

const secret = `whsec_live_${'ab'.repeat(16)}`;

describe('README quick start 2: test your app against the mock', () => {
  const backend = createMockBackend();
  const server = setupServer(...backend.handlers);
  beforeAll(() => server.listen());
  beforeEach(() => backend.reset());
  afterAll(() => server.close());

  it('creates a pixel', async () => {
    const client = new Linkgate({ apiKey: backend.adminKey, baseUrl: 'https://api.example.test' });
    await client.pixels.create({ type: 'fbpixel', name: 'Shop', tag: '1234567890' });
    expect((await client.pixels.list()).total).toBe(1);
  });

  it('starts every test from the seeded state', async () => {
    const client = new Linkgate({ apiKey: backend.adminKey, baseUrl: 'https://api.example.test' });
    expect((await client.pixels.list()).total).toBe(0);
  });

  it('runs quick start 1 (management API) as written', async () => {
    const client = new Linkgate({ apiKey: backend.adminKey, baseUrl: 'https://links.example.com' });
    const account = await client.account.get();
    expect(account.username).toBeTruthy();
    const { id } = await client.domains.create({
      domain: 'https://go.example.com',
      redirectroot: 'https://example.com',
    });
    const seen: string[] = [];
    for await (const domain of client.domains.list()) seen.push(domain.domain);
    expect(seen).toEqual(['https://go.example.com']);
    expect(id).toBeGreaterThan(0);
    await expect(client.qr.get(12345)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('README quick start 1: the messaging client', () => {
  const key = `gw_live_${'R'.repeat(32)}`;
  const backend = createMockBackend({ gateway: { messagingKey: key } });
  const server = setupServer(...backend.handlers);
  beforeAll(() => server.listen());
  afterAll(() => server.close());

  it('sends a message through the first online device', async () => {
    backend.gateway.devices.add({ status: 'ONLINE' });
    const messaging = new MessagingClient({ apiKey: key, baseUrl: 'https://gateway.example.com' });
    const sent = await messaging.messages.send({
      device_id: 'auto',
      phone: '15551234567',
      message: 'Your order has shipped',
    });
    expect(sent.success).toBe(true);
    expect(sent.data?.message_id).toBeTruthy();
  });
});

describe('README quick start 3: receive webhooks', () => {
  it('acknowledges a signed delivery in a fetch handler and refuses a forged one', async () => {
    const received: string[] = [];
    const POST = createWebhookHandler({
      secret,
      dedupe: true,
      on: { 'message.received': async (event) => void received.push(event.data.text ?? '') },
    });
    const event = {
      event: 'message.received' as const,
      device_id: 'dev-1',
      timestamp: Math.floor(Date.now() / 1000),
      data: {
        message_id: 'm1',
        sender: '15551234567',
        sender_jid: '15551234567@s.whatsapp.net',
        text: 'hello',
        has_media: false,
        timestamp: Math.floor(Date.now() / 1000),
      },
    };
    const delivery = createTestDelivery({ event, secret });
    const ok = await POST(delivery.request);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'success' });
    expect((await POST(delivery.request)).status).toBe(200); // the retry is acknowledged...
    expect(received).toEqual(['hello']); // ...and not handled twice
    const forged = createTestDelivery({ event, secret: `whsec_live_${'cd'.repeat(16)}` });
    expect((await POST(forged.request)).status).toBe(401);
  });

  it('serves the same handler on node:http through toNodeHandler', async () => {
    const texts: string[] = [];
    const handler = createWebhookHandler({
      secret,
      on: { 'message.received': (e) => void texts.push(e.data.text ?? '') },
    });
    const server = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const now = Math.floor(Date.now() / 1000);
      const { headers, body } = createTestDelivery({
        event: {
          event: 'message.received',
          device_id: 'dev-1',
          timestamp: now,
          data: {
            message_id: 'm2',
            sender: '1555',
            sender_jid: '1555@s.whatsapp.net',
            text: 'hi',
            has_media: false,
            timestamp: now,
          },
        },
        secret,
      });
      const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body });
      expect(answer.status).toBe(200);
      expect(texts).toEqual(['hi']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
