// The OpenAPI document describes the mock's own control API too, with an operationId on every operation, so a suite
// in another language can generate its client; these exchanges prove the description matches what the mock answers.
// Routes and document are built from the same rows (mock/control/control-operations.ts), so no test compares them.
import { createMockBackend, ManualClock, type MockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../mock/openapi/openapi-document.js';
import { OpenApiValidator } from '../support/openapi-validator.js';

const doc = buildOpenApiDocument();
const validator = new OpenApiValidator(doc);
const TOKEN = 'ctl-openapi-token';

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as { operationId?: string; tags?: string[] } })),
  );

/** Sends a control request and checks body and answer against the document; returns the answer. */
async function exchange(
  backend: MockBackend,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
) {
  const bare = path.split('?')[0]!;
  const matched = validator.match(method, bare);
  expect(matched, `${method} ${bare} is not in the OpenAPI document`).toBeDefined();
  if (body !== undefined) {
    const pointer = validator.requestPointer(matched!, method);
    expect(pointer, `${method} ${matched!.template} documents no request body`).toBeDefined();
    expect(validator.check(pointer!, body), `request body of ${method} ${path}`).toEqual([]);
  }
  const res = await backend.fetch(path, {
    method,
    headers: {
      ...(token !== null && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  const pointer = validator.responsePointer(matched!, method, res.status);
  expect(pointer, `status ${res.status} of ${method} ${matched!.template} is not documented`).toBeDefined();
  expect(validator.check(pointer!, json), `answer of ${method} ${path}: ${JSON.stringify(json)}`).toEqual([]);
  return { status: res.status, json };
}

describe('the OpenAPI document and the mock’s own API', () => {
  it('gives every operation, webhooks included, an operationId, each one different', () => {
    const ids = [
      ...operations().map(({ op }) => op.operationId),
      ...Object.values(doc.webhooks).map((item) => (item.post as { operationId?: string }).operationId),
    ];
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['listDomains', 'sendMessage', 'resetMock', 'loadFixture', 'advanceClock']),
    );
  });

  it('describes the control answers: setup, fixture, simulation, inspection, clock, refusals', async () => {
    const backend = createMockBackend({ seed: 'demo', clock: new ManualClock(), gateway: { controlToken: TOKEN } });
    expect((await exchange(backend, 'GET', '/__mock')).status).toBe(200);
    expect((await exchange(backend, 'GET', '/__mock/attempts', undefined, null)).status).toBe(401);
    const device = await exchange(backend, 'POST', '/__mock/devices', { tenant: 'default', id: 'phone-1' });
    expect(device.status).toBe(201);
    expect(
      (await exchange(backend, 'POST', '/__mock/webhooks', { url: 'https://receiver.example/hooks' })).status,
    ).toBe(201);
    expect((await exchange(backend, 'POST', '/__mock/webhooks', { url: 'ftp://x' })).status).toBe(400);
    expect((await exchange(backend, 'GET', '/__mock/webhooks')).status).toBe(200);
    expect((await exchange(backend, 'POST', '/__mock/keys', { tenant: 'default' })).status).toBe(201);
    expect((await exchange(backend, 'GET', '/__mock/keys')).status).toBe(200);
    expect((await exchange(backend, 'POST', '/__mock/faults', { duplicate: true })).status).toBe(200);
    expect(
      (await exchange(backend, 'POST', '/__mock/simulate/status', { device_id: 'phone-1', status: 'OFFLINE' })).status,
    ).toBe(200);
    expect((await exchange(backend, 'POST', '/__mock/clock/advance', { ms: 1000 })).status).toBe(200);
    for (const path of ['attempts', 'circuits', 'scheduled', 'dropped', 'dead-letters']) {
      expect((await exchange(backend, 'GET', `/__mock/${path}`)).status).toBe(200);
    }
    const fixture = await exchange(backend, 'POST', '/__mock/fixture', {
      users: [{ username: 'erin_dev', email: 'erin@example.com', password: 'secret-1' }],
      domains: [{ owner: 'erin_dev', domain: 'https://go.erin.example' }],
      qrs: [{ owner: 'erin_dev', type: 'link', data: 'https://erin.example' }],
    });
    expect(fixture.status).toBe(201);
    expect(
      (await exchange(backend, 'POST', '/__mock/fixture', { users: [{ username: 'x', email: 'y' }] })).status,
    ).toBe(400);
    expect((await exchange(backend, 'POST', '/__mock/reset')).status).toBe(200);
  });

  it('describes a dead letter, its body one of the webhook events', async () => {
    const rejecting = (async () => new Response('no', { status: 400 })) as typeof fetch;
    const backend = createMockBackend({ gateway: { controlToken: TOKEN, fetch: rejecting } });
    await exchange(backend, 'POST', '/__mock/devices', { tenant: 'default', id: 'phone-1' });
    await exchange(backend, 'POST', '/__mock/webhooks', { url: 'https://receiver.example/hooks' });
    await exchange(backend, 'POST', '/__mock/simulate/message', {
      device_id: 'phone-1',
      sender: '15551234567',
      text: 'hi',
    });
    await backend.gateway.drain();
    const { json } = await exchange(backend, 'GET', '/__mock/dead-letters');
    const [letter] = json.items as { body: string; reason: string }[];
    expect(letter).toMatchObject({ event: 'message.received', reason: 'rejected' });
    const body = [
      ...['get', 'responses', '200', 'content', 'application/json', 'schema'],
      ...['properties', 'items', 'items', 'properties', 'body'],
    ].reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc.paths['/__mock/dead-letters']) as {
      contentSchema?: unknown;
    };
    expect(body.contentSchema).toEqual({ $ref: '#/components/schemas/WebhookEvent' });
    expect(validator.check('/components/schemas/WebhookEvent', JSON.parse(letter!.body))).toEqual([]);
  });

  it('describes the 409 of advancing a real clock', async () => {
    const backend = createMockBackend({ gateway: { controlToken: TOKEN } });
    expect((await exchange(backend, 'POST', '/__mock/clock/advance', { ms: 1 })).status).toBe(409);
  });
});
