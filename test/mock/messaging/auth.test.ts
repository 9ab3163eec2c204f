import { createHash } from 'node:crypto';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { keyDigest, sha256 } from '../../../mock/messaging/key-digest.js';

const KEY = 'gw_live_Seeded0123456789abcdefghijkl';
const SPEC_401 = { success: false, message: 'Invalid API Key', error: 'UNAUTHORIZED' };

function setup() {
  const backend = createMockBackend({ clock: new ManualClock(), gateway: { messagingKey: KEY } });
  const send = (authorization?: string) =>
    backend.fetch('http://localhost/api/v1/wa/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) },
      body: JSON.stringify({ device_id: 'auto', phone: '15551234567', message: 'hi' }),
    });
  return { backend, send };
}

describe('messaging API keys', () => {
  it.each([
    ['a missing header', undefined],
    ['a header without Bearer', KEY],
    ['an unknown key', 'Bearer gw_live_Unknown0123456789abcdefghijk'],
    ['a management-style key', 'Bearer 0123456789abcdef0123456789abcdef'],
  ])('answers %s with HTTP 401 and exactly the spec body', async (_name, header) => {
    const res = await setup().send(header);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(SPEC_401);
  });

  it('answers a revoked key with 401, and the regenerated key works while the old one does not', async () => {
    const { backend, send } = setup();
    backend.gateway.devices.add();
    const issued = backend.gateway.keys.create({ tenant: 'default', label: 'ci' });
    expect((await send(`Bearer ${issued.key}`)).status).toBe(200);
    const fresh = backend.gateway.keys.regenerate(issued.id);
    expect((await send(`Bearer ${issued.key}`)).status).toBe(401);
    expect((await send(`Bearer ${fresh.key}`)).status).toBe(200);
    backend.gateway.keys.revoke(fresh.id);
    const res = await send(`Bearer ${fresh.key}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(SPEC_401);
  });

  it('answers unknown /api/v1 paths with 401 before 404, so keys cannot be probed', async () => {
    const { backend } = setup();
    const anon = await backend.fetch('http://localhost/api/v1/nothing');
    expect(anon.status).toBe(401);
    const authed = await backend.fetch('http://localhost/api/v1/nothing', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(authed.status).toBe(404);
    expect(await authed.json()).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });

  it('keeps keys per tenant: a key sees only its own tenant devices', async () => {
    const { backend } = setup();
    backend.gateway.devices.add({ tenant: 'default', id: 'mine' });
    backend.gateway.devices.add({ tenant: 'acme', id: 'theirs' });
    const res = await backend.fetch('http://localhost/api/v1/wa/devices', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect((await res.json()).data.map((d: { device_id: string }) => d.device_id)).toEqual(['mine']);
  });

  it('lists keys without the keys themselves', () => {
    const { backend } = setup();
    const listed = JSON.stringify(backend.gateway.keys.list());
    expect(listed).not.toContain(KEY);
    expect(listed).toContain('gw_live_Seed…');
  });

  it('stores keys under a SHA-256 digest that matches node:crypto', () => {
    for (const text of ['', 'abc', KEY, 'x'.repeat(200), 'ünïcødé']) {
      expect(Buffer.from(sha256(text)).toString('hex')).toBe(createHash('sha256').update(text).digest('hex'));
    }
    expect(keyDigest(KEY)).toHaveLength(32);
  });
});
