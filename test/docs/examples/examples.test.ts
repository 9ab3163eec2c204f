// Runs every example's main() against the reference mock over HTTP, so the examples cannot rot.

import { PermissionDeniedError } from 'linkgate';
import {
  createMockBackend,
  ManualClock,
  type MockServer,
  type StartMockServerOptions,
  startMockServer,
} from 'linkgate/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { main as adminUsers } from '../../../examples/admin-users.js';
import { main as bulkCreatePixels } from '../../../examples/bulk-create-pixels.js';
import { main as listAllDomains } from '../../../examples/list-all-domains.js';
import { main as qrStats } from '../../../examples/qr-stats.js';
import { createApp, main as honoReceiver } from '../../../examples/webhook-receiver-hono.js';
import { main as nodeReceiver } from '../../../examples/webhook-receiver-node.js';
import type { BackendCore } from '../../../mock/backend.js';

const SECRET = `whsec_live_${'0123456789abcdef'.repeat(2)}`;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(options: StartMockServerOptions = {}): Promise<MockServer> {
  const server = await startMockServer<BackendCore>({ port: 0, ...options });
  closers.push(() => server.close());
  return server;
}

const userKey = (backend: BackendCore, username: string) =>
  [...backend.store.users.values()].find((u) => u.username === username)!.apikey;

describe('examples/list-all-domains.ts', () => {
  it('walks every page and returns every domain of the account', async () => {
    const server = await serve({ seed: 'demo' });
    const lines: string[] = [];
    const domains = await listAllDomains({
      apiKey: userKey(server.backend, 'alice'),
      baseUrl: server.url,
      perPage: 1,
      log: (l) => lines.push(l),
    });
    expect(domains.map((d) => d.domain).sort()).toEqual(['https://go.alice.example', 'https://links.alice.example']);
    expect(lines).toContain('page 2 of 2 (2 domains in all)');
  });
});

describe('examples/bulk-create-pixels.ts', () => {
  it('creates 100 pixels, waiting for each new rate-limit window instead of failing', async () => {
    const clock = new ManualClock();
    const server = await serve({ clock });
    const lines: string[] = [];
    const reasons: string[] = [];
    const ids = await bulkCreatePixels({
      apiKey: server.backend.adminKey,
      baseUrl: server.url,
      clock,
      batch: 'TEST',
      log: (l) => lines.push(l),
      // The client is about to wait on the manual clock: move time on by as much, so the run takes no real minutes.
      onRateLimit: (event) => {
        reasons.push(event.reason);
        void clock.advance(event.waitMs);
      },
    });
    expect(new Set(ids).size).toBe(100);
    expect(server.backend.store.pixels.size).toBe(100);
    expect(lines.filter((l) => l.startsWith('created '))).toHaveLength(10);
    // 100 requests at 30 a minute: held at least 3 times, by its own budget before the API had to refuse anything.
    expect(reasons.filter((r) => r === 'budget').length).toBeGreaterThanOrEqual(3);
    expect(reasons).not.toContain('answer');
  });
});

describe('examples/qr-stats.ts', () => {
  it('reports each QR code’s scans and its top countries, busiest first', async () => {
    const server = await serve({ seed: 'demo' });
    const summaries = await qrStats({ apiKey: userKey(server.backend, 'alice'), baseUrl: server.url, log: () => {} });
    expect(summaries).toHaveLength(3);
    const menu = summaries.find((s) => s.name === 'Restaurant menu')!;
    expect(menu).toMatchObject({ clicks: 42, uniqueClicks: 31 });
    expect(menu.topCountries).toEqual([
      ['United States', 18],
      ['Germany', 11],
      ['France', 7],
    ]);
  });
});

describe('examples/admin-users.ts', () => {
  it('registers, subscribes and deletes a user without ever printing an API key', async () => {
    const server = await serve({ seed: 'demo' });
    const lines: string[] = [];
    const result = await adminUsers({
      apiKey: server.backend.adminKey,
      baseUrl: server.url,
      username: 'example_user',
      log: (l) => lines.push(l),
    });
    expect(result.expires).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(lines.some((l) => l.includes('example_user is now pro'))).toBe(true);
    expect(lines.some((l) => l.startsWith('pro users:') && l.includes('example_user'))).toBe(true);
    expect([...server.backend.store.users.values()].some((u) => u.username === 'example_user')).toBe(false);
    const keys = [...server.backend.store.users.values()].map((u) => u.apikey);
    for (const line of lines) for (const key of keys) expect(line).not.toContain(key);
  });

  it('fails with a hint when the key is not an admin’s', async () => {
    const server = await serve({ seed: 'demo' });
    const lines: string[] = [];
    await expect(
      adminUsers({ apiKey: userKey(server.backend, 'alice'), baseUrl: server.url, log: (l) => lines.push(l) }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(lines).toContain('this key is not an admin key: plans and users need one');
  });
});

/** A backend whose gateway delivers to `url` with the example's secret, and a device that sends events. */
function gatewayTo(url: string, deliver?: typeof fetch) {
  const backend = createMockBackend(deliver ? { gateway: { fetch: deliver } } : {});
  backend.gateway.routing.setTenant('default', { url, secret: SECRET, events: ['message.received', 'device.status'] });
  const device = backend.gateway.devices.add({ tenant: 'default' });
  return { gateway: backend.gateway, device };
}

describe('examples/webhook-receiver-node.ts', () => {
  it('receives what the mock gateway delivers, once each, even when a delivery arrives twice', async () => {
    const receiver = await nodeReceiver({ secret: SECRET, port: 0, log: () => {} });
    closers.push(receiver.close);
    const { gateway, device } = gatewayTo(receiver.url);
    gateway.faults.next({ duplicate: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hello' });
    gateway.simulate.status({ device_id: device.id, status: 'OFFLINE', reason: 'connection_lost' });
    await gateway.drain();

    expect(receiver.received.map((e) => e.event)).toEqual(['message.received', 'device.status']);
    expect(gateway.attempts().every((a) => a.outcome === 'delivered')).toBe(true);
    expect(gateway.attempts()).toHaveLength(3); // the duplicated first delivery, then the status
  });

  it('refuses a delivery with the wrong secret, so the gateway dead-letters it', async () => {
    const receiver = await nodeReceiver({ secret: SECRET, port: 0, log: () => {} });
    closers.push(receiver.close);
    const { gateway, device } = gatewayTo(receiver.url);
    gateway.faults.next({ wrongSecret: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'forged' });
    await gateway.drain();
    expect(receiver.received).toEqual([]);
    expect(gateway.attempts()[0]?.response?.status).toBe(401);
    expect(gateway.deadLetters.list()).toHaveLength(1);
  });
});

describe('examples/webhook-receiver-hono.ts', () => {
  it('receives deliveries as a Hono route, called in-process by the gateway', async () => {
    const { app, received } = createApp(SECRET, () => {});
    const { gateway, device } = gatewayTo('https://receiver.example/webhooks', async (input, init) =>
      app.fetch(new Request(input, init)),
    );
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hi', push_name: 'Sam' });
    await gateway.drain();
    expect(received.map((e) => e.event)).toEqual(['message.received']);
    const events = await (await app.fetch(new Request('http://localhost/events'))).json();
    expect(events).toEqual([{ event: 'message.received', device_id: device.id }]);
  });

  it('serves the same app over node:http', async () => {
    const receiver = await honoReceiver({ secret: SECRET, port: 0, log: () => {} });
    closers.push(receiver.close);
    const { gateway, device } = gatewayTo(receiver.url);
    gateway.simulate.status({ device_id: device.id, status: 'ONLINE' });
    await gateway.drain();
    expect(receiver.received.map((e) => e.event)).toEqual(['device.status']);
  });
});
