import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../mock/adapters/node-server.js';
import type { BackendCore } from '../../../mock/backend.js';
import { ManualClock } from '../../../mock/shared/manual-clock.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { openFeed } from './feed-reader.js';

const TOKEN = 'ctl_inspector_test_token';

describe('GET /__mock/events, the inspector feed', () => {
  let server: MockServer<BackendCore<ManualClock>>;
  let closed = false;
  let rx: Receiver | undefined;
  afterEach(async () => {
    if (!closed) await server?.close();
    closed = false;
    await rx?.close();
    rx = undefined;
  });

  const start = async () => {
    server = await startMockServer({ clock: new ManualClock(), seed: 'demo', gateway: { controlToken: TOKEN } });
    return server;
  };
  const control = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: await r.json() }));

  it('answers 401 with how to send the token, and no data, when the token is missing or wrong', async () => {
    await start();
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${server.url}/__mock/events`, { headers });
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(body).toMatch(/Authorization: Bearer <control token>/);
      expect(body).not.toMatch(/alice|event:/);
    }
  });

  it('sends a snapshot of every section first: data with keys masked, webhooks, deliveries, devices, the clock', async () => {
    await start();
    const feed = await openFeed(server.url, TOKEN);
    try {
      expect(feed.status).toBe(200);
      const { data } = await feed.next('snapshot');
      expect(Object.keys(data).sort()).toEqual(
        ['clock', 'data', 'deadLetters', 'deliveries', 'devices', 'faults', 'messages', 'rate', 'webhooks'].sort(),
      );
      expect(data.clock).toEqual({ kind: 'manual', now: server.backend.clock.now(), nextDueAt: null });
      const alice = [...server.backend.store.users.values()].find((u) => u.username === 'alice')!;
      const shown = data.data.users.find((u: { username: string }) => u.username === 'alice');
      expect(shown.key).toBe(`…${alice.apikey.slice(-4)}`);
      expect(JSON.stringify(data)).not.toContain(alice.apikey);
      expect(data.data.qrs[0].image).toMatch(/^\/api\/qr\/image\/[0-9a-f]+\.png$/);
    } finally {
      feed.close();
    }
  });

  it('sends attempts, circuit changes and dead letters as they happen, and the changed sections after them', async () => {
    await start();
    rx = await startReceiver(() => ({ status: 503, body: 'down' }));
    await control('/__mock/webhooks', { url: rx.url });
    const device = (await control('/__mock/devices', {})).json;
    const feed = await openFeed(server.url, TOKEN);
    try {
      await feed.next('snapshot');
      await control('/__mock/simulate/message', { device_id: device.id, sender: '15551234567', text: 'hi' });
      const attempt = await feed.next('attempt');
      expect(attempt.data).toMatchObject({ attempt: 1, status: 503, outcome: 'failed', url: rx.url });
      expect(JSON.stringify(attempt.data)).not.toMatch(/whsec_/);
      const deliveries = await feed.next('deliveries', (d) => d.items[0]?.next?.attempt === 2);
      expect(deliveries.data.items[0].attempts).toHaveLength(1);
      expect(deliveries.data.items[0].next.at).toBe(server.backend.clock.now() + 3_000);
      const messages = await feed.next('messages', (m) => m.length === 1);
      expect(messages.data[0]).toMatchObject({ direction: 'in', peer: '15551234567', text: 'hi' });

      // Four more failures open the circuit; the sixth attempt is the probe, and its failure dead-letters the event.
      const before = feed.events.length;
      for (let i = 0; i < 6; i++) {
        const next = server.backend.clock.nextAt()!;
        await control('/__mock/clock/advance', { ms: next - server.backend.clock.now() });
      }
      const opened = await feed.next('circuit', (c) => c.to === 'open', 10_000, before);
      expect(opened.data.openUntil).toBe(opened.data.at + 30_000);
      const dead = await feed.next('dead-letter', () => true, 10_000, before);
      expect(dead.data).toMatchObject({ reason: 'exhausted', attempts: 6, lastStatus: 503 });
      expect(dead.data.body).toBeUndefined();
      const queue = await feed.next('deadLetters', (d) => d.tenants[0]?.items.length === 1, 10_000, before);
      expect(queue.data.tenants[0]).toMatchObject({ tenant: 'default', evicted: 0 });
      const clock = await feed.next('clock', (c) => c.now === server.backend.clock.now(), 10_000, before);
      expect(clock.data.kind).toBe('manual');
    } finally {
      feed.close();
    }
  });

  it('sends a change to the data as the rows that changed and the ids removed, not the whole store', async () => {
    await start();
    const alice = [...server.backend.store.users.values()].find((u) => u.username === 'alice')!;
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${alice.apikey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json());
    const feed = await openFeed(server.url, TOKEN);
    try {
      const before = (await feed.next('snapshot')).data.data.domains.length;
      const { id } = await api('POST', '/api/domain/add', { domain: 'https://new.example' });
      const added = await feed.next('data-changes', (c) => c.domains?.set.length > 0);
      expect(added.data).toEqual({
        domains: { set: [{ id, owner: 'alice', domain: 'https://new.example' }], removed: [] },
      });
      expect(before).toBeGreaterThan(1);
      await api('DELETE', `/api/domain/${id}/delete`);
      const removed = await feed.next('data-changes', (c) => c.domains?.removed.length > 0);
      expect(removed.data).toEqual({ domains: { set: [], removed: [id] } });
    } finally {
      feed.close();
    }
  });

  it('shows the management API rate window of a key as requests use it', async () => {
    await start();
    const alice = [...server.backend.store.users.values()].find((u) => u.username === 'alice')!;
    const feed = await openFeed(server.url, TOKEN);
    try {
      await feed.next('snapshot');
      for (let i = 0; i < 3; i++) {
        await fetch(`${server.url}/api/domains`, { headers: { authorization: `Bearer ${alice.apikey}` } });
      }
      const rate = await feed.next('rate', (r) => r.keys[0]?.used === 3);
      expect(rate.data.keys[0]).toMatchObject({ username: 'alice', limit: 30, remaining: 27 });
      expect(rate.data.keys[0].resetAt).toBe(server.backend.clock.now() + 60_000);
    } finally {
      feed.close();
    }
  });

  it('shows a sent message and its receipts as they advance: sent, delivered, read', async () => {
    const key = `gw_live_${'a1'.repeat(12)}`;
    server = await startMockServer({
      clock: new ManualClock(),
      gateway: { controlToken: TOKEN, messagingKey: key, devices: [{ id: 'dev_out' }] },
    });
    const feed = await openFeed(server.url, TOKEN);
    try {
      await feed.next('snapshot');
      const sent = await fetch(`${server.url}/api/v1/wa/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: 'dev_out', phone: '15557654321', message: 'hello there' }),
      }).then((r) => r.json());
      const t0 = server.backend.clock.now();
      await control('/__mock/clock/advance', { ms: 3_000 });
      const shown = await feed.next('messages', (m) => m[0]?.statuses.length === 3);
      expect(shown.data[0]).toMatchObject({
        messageId: sent.data.message_id,
        deviceId: 'dev_out',
        direction: 'out',
        peer: '15557654321',
        text: 'hello there',
      });
      expect(shown.data[0].statuses).toEqual([
        { status: 'sent', at: t0 + 1_000 },
        { status: 'delivered', at: t0 + 2_000 },
        { status: 'read', at: t0 + 3_000 },
      ]);
    } finally {
      feed.close();
    }
  });

  it('shows each pairing frame with its image and the time it expires', async () => {
    await start();
    const device = (await control('/__mock/devices', { status: 'OFFLINE' })).json;
    const feed = await openFeed(server.url, TOKEN);
    try {
      await feed.next('snapshot');
      const started = (await control('/__mock/simulate/pairing', { device_id: device.id })).json;
      const shown = await feed.next('devices', (d) => d.devices[0]?.pairing?.frame?.attempt === 1);
      const pairing = shown.data.devices[0].pairing;
      expect(pairing).toMatchObject({ state: 'waiting', attempt: 1, qrCode: started.qrCode });
      expect(pairing.frame.qrCode).toBe(started.qrCode);
      expect(pairing.frame.image).toMatch(/^data:image\/png;base64,/);
      expect(pairing.frame.expiresAt).toBe(server.backend.clock.now() + 20_000);
    } finally {
      feed.close();
    }
  });

  it('shows a page opened later the current pairing frame and the messages before it', async () => {
    await start();
    const device = (await control('/__mock/devices', { status: 'OFFLINE' })).json;
    const inbound = (await control('/__mock/devices', {})).json;
    await control('/__mock/simulate/message', { device_id: inbound.id, sender: '15551230000', text: 'earlier' });
    const started = (await control('/__mock/simulate/pairing', { device_id: device.id })).json;
    // The frame's image is drawn asynchronously; drain waits for it.
    await control('/__mock/drain', {});
    const feed = await openFeed(server.url, TOKEN);
    try {
      const { data } = await feed.next('snapshot');
      const shown = data.devices.devices.find((d: { id: string }) => d.id === device.id);
      expect(shown.pairing.frame).toMatchObject({ attempt: 1, qrCode: started.qrCode });
      expect(data.messages[0]).toMatchObject({ direction: 'in', peer: '15551230000', text: 'earlier' });
    } finally {
      feed.close();
    }
  });

  it('shows no messages from before POST /__mock/reset, in open feeds and in pages opened later', async () => {
    await start();
    const inbound = (await control('/__mock/devices', {})).json;
    await control('/__mock/simulate/message', { device_id: inbound.id, sender: '15551230000', text: 'before reset' });
    const open = await openFeed(server.url, TOKEN);
    try {
      expect((await open.next('snapshot')).data.messages).toHaveLength(1);
      expect((await control('/__mock/reset', {})).status).toBe(200);
      await open.next('messages', (m) => m.length === 0);
    } finally {
      open.close();
    }
    const later = await openFeed(server.url, TOKEN);
    try {
      const { data } = await later.next('snapshot');
      expect(data.messages).toEqual([]);
      expect(JSON.stringify(data)).not.toContain('before reset');
    } finally {
      later.close();
    }
  });

  it('ends open feeds when the server closes, so close() does not wait for readers', async () => {
    await start();
    const feed = await openFeed(server.url, TOKEN);
    await feed.next('snapshot');
    const started = performance.now();
    await server.close();
    closed = true;
    expect(performance.now() - started).toBeLessThan(2_000);
    feed.close();
  });

  it('closes at once after a reader hung up on a feed opened on a keep-alive client (fetch opens a spare connection then)', async () => {
    await start();
    expect((await control('/__mock/reset', {})).status).toBe(200);
    const feed = await openFeed(server.url, TOKEN);
    await feed.next('snapshot');
    feed.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await server.close();
    closed = true;
    // It waited ~3 s for fetch to drop its spare connection before close() dropped connections that sent nothing.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
