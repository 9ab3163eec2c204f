import {
  APIError,
  AuthenticationError,
  LinkgateError,
  MessagingClient,
  NotFoundError,
  ValidationError,
} from 'linkgate';
import { createMockBackend, ManualClock, type MockBackend } from 'linkgate/mock';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const BASE_URL = 'http://gateway.test';
const KEY = 'gw_live_TestKey0123456789abcdefghij';

describe('MessagingClient', () => {
  const server = setupServer();
  let backend: MockBackend;
  let clock: ManualClock;
  const client = (apiKey = KEY) => new MessagingClient({ apiKey, baseUrl: BASE_URL, clock });

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());
  beforeEach(() => {
    clock = new ManualClock();
    backend = createMockBackend({ clock, gateway: { messagingKey: KEY } });
    server.resetHandlers(...backend.handlers);
  });

  it('sends a message through an ONLINE device and returns the queued message id', async () => {
    const device = backend.gateway.devices.add({ status: 'ONLINE' });
    const result = await client().messages.send({ device_id: device.id, phone: '15551234567', message: 'Hi' });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ device_id: device.id, phone: '15551234567', status: 'queued' });
    expect(result.data?.message_id).toMatch(/^3EB0[0-9A-F]{16}$/);
  });

  it('lets device_id "auto" pick the first ONLINE device', async () => {
    backend.gateway.devices.add({ id: 'off', status: 'OFFLINE' });
    backend.gateway.devices.add({ id: 'on', status: 'ONLINE' });
    const result = await client().messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' });
    expect(result.data?.device_id).toBe('on');
  });

  it('turns the 401 of an unknown key into AuthenticationError carrying the spec body', async () => {
    const error = await client('gw_live_Unknown0123456789abcdefghijk')
      .messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).body).toEqual({
      success: false,
      message: 'Invalid API Key',
      error: 'UNAUTHORIZED',
    });
    expect(String((error as Error).message)).not.toContain('gw_live_Unknown');
  });

  it('turns the 401 of a revoked key into AuthenticationError', async () => {
    const issued = backend.gateway.keys.create({ label: 'to revoke' });
    backend.gateway.keys.revoke(issued.id);
    await expect(
      client(issued.key).messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' }),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('reports an unknown device as NotFoundError and an offline one as an APIError with status 409', async () => {
    backend.gateway.devices.add({ id: 'sleepy', status: 'HIBERNATED' });
    const unknown = await client()
      .messages.send({ device_id: 'nope', phone: '15551234567', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    const offline = await client()
      .messages.send({ device_id: 'sleepy', phone: '15551234567', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(offline).toBeInstanceOf(APIError);
    expect((offline as APIError).status).toBe(409);
    expect((offline as APIError).body).toMatchObject({ success: false, error: 'DEVICE_NOT_ONLINE' });
  });

  it('checks the body before sending and names the field', async () => {
    const error = await client()
      .messages.send({ device_id: 'auto', phone: '+1 555', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(String((error as Error).message)).toContain('phone');
  });

  it('refuses a key of the wrong shape at construction without printing it', () => {
    const bad = 'sk_live_SECRETSECRETSECRET1234567890';
    let error: unknown;
    try {
      new MessagingClient({ apiKey: bad, baseUrl: BASE_URL });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LinkgateError);
    expect(String((error as Error).message)).toContain('gw_live_');
    expect(String((error as Error).message)).not.toContain('SECRET');
  });

  it('never shows the key in toString()', () => {
    expect(String(client())).not.toContain(KEY);
  });

  it('has the mock name the missing field with HTTP 400 when client-side checks are bypassed', async () => {
    const res = await backend.fetch(`${BASE_URL}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: 'auto', phone: '15551234567' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: 'VALIDATION_ERROR', field: 'message' });
  });
});
