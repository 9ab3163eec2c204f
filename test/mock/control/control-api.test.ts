import { ManualClock, type MockServer, startMockServer } from 'linkgate/mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../support/receiver.js';

const TOKEN = 'ctl-test-token-123';

describe('the /__mock/ control API over HTTP', () => {
  let server: MockServer;
  let rx: Receiver;
  const call = async (method: string, path: string, body?: unknown, token: string | null = TOKEN) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token !== null && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeEach(async () => {
    rx = await startReceiver();
    server = await startMockServer({ clock: new ManualClock(), gateway: { controlToken: TOKEN } });
  });
  afterEach(async () => {
    await server.close();
    await rx.close();
  });

  it('lists in its index, and serves, each endpoint the document describes, from the same rows', async () => {
    const index = (await call('GET', '/__mock')).body.endpoints as string[];
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    const controlOperations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        // The token-protected ones: stored media is public (`security: []`).
        .filter(([, op]) => path.startsWith('/__mock/') && Array.isArray(op.security) && op.security.length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(controlOperations.length).toBeGreaterThan(25);
    for (const operation of controlOperations) {
      expect(
        index.some(
          (line) => line === operation || line.startsWith(`${operation} `) || line.startsWith(`${operation}?`),
        ),
        operation,
      ).toBe(true);
      const [method, path] = operation.split(' ') as [string, string];
      if (path === '/__mock/events') {
        // The inspector's feed never ends: being served means a 200 event stream.
        const feed = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(feed.headers.get('content-type'), operation).toMatch(/^text\/event-stream/);
        await feed.body?.cancel();
        continue;
      }
      // Served: an unknown path would be a 404 `No control endpoint`; a known one answers anything else.
      const res = await call(
        method,
        path.replace(/:(\w+)/g, 'x'),
        method === 'GET' || method === 'DELETE' ? undefined : {},
      );
      expect(JSON.stringify(res.body), operation).not.toContain('No control endpoint');
    }
  });

  it('refuses requests without the control token, or with a wrong one, with 401', async () => {
    for (const token of [null, 'wrong-token']) {
      const res = await call('GET', '/__mock/attempts', undefined, token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'unauthorized' });
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    }
    expect((await call('GET', '/__mock/nothing-here', undefined, null)).status).toBe(401);
    expect((await call('GET', '/__mock/nothing-here')).status).toBe(404);
  });

  it('answers bad input with 400 naming the field and the rule, and changes nothing', async () => {
    expect(await call('POST', '/__mock/webhooks', { url: 'http://example.com/x' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', field: 'url', rule: expect.stringContaining('HTTPS') },
    });
    expect(await call('POST', '/__mock/devices', { status: 'SLEEPING' })).toMatchObject({
      status: 400,
      body: { field: 'status' },
    });
    expect(await call('POST', '/__mock/simulate/message', '{not json')).toMatchObject({
      status: 400,
      body: { field: 'body' },
    });
    expect(await call('POST', '/__mock/simulate/message', { device_id: 'ghost', sender: '1' })).toMatchObject({
      status: 404,
      body: { field: 'device_id' },
    });
    expect(await call('POST', '/__mock/faults', { duplicate: 'yes' })).toMatchObject({
      status: 400,
      body: { field: 'duplicate' },
    });
    expect(await call('POST', '/__mock/clock/advance', { ms: -5 })).toMatchObject({
      status: 400,
      body: { field: 'ms' },
    });
    expect((await call('GET', '/__mock/webhooks')).body).toEqual({ tenants: [], devices: [] });
    expect((await call('GET', '/__mock/devices')).body).toEqual({ devices: [] });
  });

  it('configures a webhook and a device, simulates a message, and shows the attempt', async () => {
    const hook = await call('POST', '/__mock/webhooks', { url: rx.url });
    expect(hook).toMatchObject({ status: 201, body: { tenant: 'default', kind: 'tenant', url: rx.url } });
    expect(hook.body.secret).toMatch(/^whsec_live_[0-9a-f]{32}$/);
    const device = await call('POST', '/__mock/devices', { name: 'Front desk' });
    expect(device).toMatchObject({ status: 201, body: { id: 'dev_1', status: 'ONLINE', name: 'Front desk' } });
    const sim = await call('POST', '/__mock/simulate/message', {
      device_id: 'dev_1',
      sender: '15551234567',
      media: { mime_type: 'image/png', data: Buffer.from('png!').toString('base64') },
    });
    expect(sim.status).toBe(200);
    await call('POST', '/__mock/drain');
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers['x-service-secret']).toBe(hook.body.secret);
    // Media links point at this server, where they are served without the token.
    const url = String((rx.received[0]!.json.data.media as { url: string }).url);
    expect(url.startsWith(`${server.url}/__mock/media/tmp/`)).toBe(true);
    const media = await fetch(url);
    expect(Buffer.from(await media.arrayBuffer()).toString()).toBe('png!');
    const attempts = await call('GET', '/__mock/attempts?redact=1');
    expect(attempts.body.attempts).toHaveLength(1);
    expect(attempts.body.attempts[0]).toMatchObject({ outcome: 'delivered', attempt: 1, response: { status: 200 } });
    expect(JSON.stringify(attempts.body)).not.toContain(hook.body.secret);
    expect((await call('GET', '/__mock/circuits')).body.circuits[0]).toMatchObject({ url: rx.url, state: 'closed' });
  });

  it('drives retries with the manual clock, then lists, replays and purges dead letters', async () => {
    rx.answer(() => ({ status: 500 }));
    await call('POST', '/__mock/webhooks', { url: rx.url });
    await call('POST', '/__mock/devices', {});
    await call('POST', '/__mock/simulate/status', { device_id: 'dev_1', status: 'OFFLINE', reason: 'battery' });
    await call('POST', '/__mock/drain');
    for (const ms of [3_000, 6_000, 12_000, 24_000, 48_000]) await call('POST', '/__mock/clock/advance', { ms });
    expect(rx.received).toHaveLength(6);
    const dead = await call('GET', '/__mock/dead-letters');
    expect(dead.body.items).toHaveLength(1);
    expect(dead.body.items[0]).toMatchObject({ reason: 'exhausted', event: 'device.status', attempts: 6 });
    rx.answer(() => ({ status: 200 }));
    const id = dead.body.items[0].deliveryId;
    expect(await call('POST', `/__mock/dead-letters/${id}/replay`)).toMatchObject({
      status: 200,
      body: { deliveryId: id },
    });
    await call('POST', '/__mock/drain');
    // The sixth failure left the circuit open: the replay goes out as its probe 30 s later, and is answered 200.
    const before = rx.received.length;
    await call('POST', '/__mock/clock/advance', { ms: 30_000 });
    await call('POST', '/__mock/drain');
    expect(rx.received).toHaveLength(before + 1);
    expect(rx.received.at(-1)!.headers['x-service-delivery-id']).toBe(id);
    expect((await call('GET', '/__mock/dead-letters')).body.items).toEqual([]);
    expect(await call('POST', '/__mock/dead-letters/NOPE/replay')).toMatchObject({
      status: 404,
      body: { field: 'deliveryId' },
    });
    // A delivery the receiver refuses with 400 is dead-lettered at once; purge empties the queue.
    rx.answer(() => ({ status: 400 }));
    await call('POST', '/__mock/simulate/status', { device_id: 'dev_1', status: 'ONLINE' });
    await call('POST', '/__mock/drain');
    expect((await call('GET', '/__mock/dead-letters')).body.items).toHaveLength(1);
    expect((await call('DELETE', '/__mock/dead-letters')).body).toEqual({ purged: 1 });
    expect((await call('GET', '/__mock/dead-letters')).body.items).toEqual([]);
  });

  it('creates, regenerates and revokes messaging keys that the /api/v1 API honours', async () => {
    await call('POST', '/__mock/devices', {});
    const created = await call('POST', '/__mock/keys', { label: 'ci' });
    expect(created.status).toBe(201);
    const send = (key: string) =>
      fetch(`${server.url}/api/v1/wa/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: 'auto', phone: '15551234567', message: 'hi' }),
      });
    expect((await send(created.body.key)).status).toBe(200);
    const fresh = await call('POST', `/__mock/keys/${created.body.id}/regenerate`);
    expect((await send(created.body.key)).status).toBe(401);
    expect((await send(fresh.body.key)).status).toBe(200);
    expect(await call('DELETE', `/__mock/keys/${fresh.body.id}`)).toMatchObject({
      status: 200,
      body: { revoked: true },
    });
    const res = await send(fresh.body.key);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, message: 'Invalid API Key', error: 'UNAUTHORIZED' });
    expect(JSON.stringify((await call('GET', '/__mock/keys')).body)).not.toContain(fresh.body.key);
  });

  it('refuses to advance a real clock with 409, naming the --clock manual flag and the in-process ManualClock', async () => {
    const real = await startMockServer({ gateway: { controlToken: TOKEN } });
    const res = await fetch(`${real.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"ms":1000}',
    });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body).toMatchObject({ field: 'clock' });
    expect(body.message).toContain('linkgate mock --clock manual');
    expect(body.message).toContain('ManualClock');
    await real.close();
  });
});
