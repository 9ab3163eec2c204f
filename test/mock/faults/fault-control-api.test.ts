import { ManualClock, type MockServer, startMockServer } from 'linkgate/mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const TOKEN = 'ctl-faults-token-1';

describe('POST/GET/DELETE /__mock/faults over HTTP', () => {
  let server: MockServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const api = (path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.backend.adminKey}` } });

  beforeEach(async () => {
    server = await startMockServer({ clock: new ManualClock(), seed: 'demo', gateway: { controlToken: TOKEN } });
  });
  afterEach(() => server.close());

  it('arms an API fault, lists it and what it fired, and disarms it by id', async () => {
    const armed = await call('POST', '/__mock/faults', {
      operation: 'listDomains',
      fault: 'status',
      status: 500,
      times: 'always',
      name: 'db down',
    });
    expect(armed.status).toBe(200);
    expect(armed.body).toMatchObject({
      armed: 0,
      faults: [{ id: 'f1', name: 'db down', fault: 'status', details: { status: 500 } }],
    });
    expect((await api('/api/domains')).status).toBe(500);
    const listed = (await call('GET', '/__mock/faults')).body;
    expect(listed.faults).toMatchObject([{ id: 'f1', seen: 1, fired: 1 }]);
    expect(listed.fired).toMatchObject([
      { rule: 'f1', name: 'db down', fault: 'status', operation: 'listDomains', method: 'GET', path: '/api/domains' },
    ]);
    expect((await call('DELETE', '/__mock/faults?id=f1')).body).toEqual({ cleared: true });
    expect((await api('/api/domains')).status).toBe(200);
    expect(await call('DELETE', '/__mock/faults?id=f1')).toMatchObject({ status: 404, body: { field: 'id' } });
  });

  it('arms a plan of API and delivery faults at once', async () => {
    const armed = await call('POST', '/__mock/faults', {
      seed: 7,
      faults: [
        { operation: 'getAccount', fault: 'unavailable' },
        { wrongSecret: true, times: 2 },
      ],
    });
    expect(armed.body).toMatchObject({ armed: 2, faults: [{ id: 'f1', seed: 7 }] });
    expect((await call('GET', '/__mock/faults')).body.deliveries).toBe(2);
    expect((await call('DELETE', '/__mock/faults')).body).toEqual({ cleared: true });
    expect((await call('GET', '/__mock/faults')).body).toMatchObject({ deliveries: 0, faults: [] });
  });

  it('keeps the delivery faults’ words as they were', async () => {
    expect((await call('POST', '/__mock/faults', { duplicate: true, times: 3 })).body).toEqual({
      armed: 3,
      faults: [],
    });
  });

  it('is cleared by POST /__mock/reset', async () => {
    await call('POST', '/__mock/faults', { operation: 'getAccount', fault: 'unavailable', times: 'always' });
    await call('POST', '/__mock/reset');
    expect((await call('GET', '/__mock/faults')).body.faults).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, and arms nothing', async () => {
    const refusals: [unknown, string, RegExp][] = [
      [{ operation: 'listDomainz', fault: 'status', status: 500 }, 'operation', /listDomainz" is none/],
      [{ path: '/api/nowhere/*', fault: 'reset' }, 'path', /matches no/],
      [{ path: 'api/qr', fault: 'reset' }, 'path', /starting with "\/"/],
      [{ operation: 'listDomains', method: 'POST', fault: 'reset' }, 'method', /matches no operation/],
      [{ operation: 'listDomains', tenant: 'default', fault: 'reset' }, 'tenant', /messaging API only/],
      [{ operation: 'getAccount', device: 'dev_1', fault: 'reset' }, 'device', /sendMessage only/],
      [{ operation: 'sendMessage', fault: 'error' }, 'fault', /management API’s form/],
      [{ operation: 'getAccount', fault: 'explode' }, 'fault', /must be one of status, error/],
      [{ operation: 'getAccount' }, 'fault', /is required/],
      [{ operation: 'getAccount', fault: 'status' }, 'status', /is required for a status fault/],
      [{ operation: 'getAccount', fault: 'status', status: 200 }, 'status', /from 400 to 599/],
      [{ operation: 'getAccount', fault: 'reset', ms: 5 }, 'ms', /applies to latency faults only, not reset/],
      [{ operation: 'getAccount', fault: 'reset', chance: 2 }, 'chance', /from 0 to 1/],
      [{ operation: 'getAccount', fault: 'reset', times: 0 }, 'times', /1 to 1000000, or "always"/],
      [{ operation: 'getAccount', fault: 'reset', duplicate: true }, 'duplicate', /delivery fault/],
      [
        {
          faults: [
            { operation: 'getAccount', fault: 'reset' },
            { operation: 'nope', fault: 'reset' },
          ],
        },
        'faults[1].operation',
        /none/,
      ],
      [{ faults: 'all' }, 'faults', /list of faults/],
      ['{"fault":', 'body', /valid JSON/],
    ];
    for (const [body, field, rule] of refusals) {
      const res = await call('POST', '/__mock/faults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
      expect(res.body.message, JSON.stringify(body)).toMatch(rule);
    }
    expect((await call('GET', '/__mock/faults')).body.faults).toEqual([]);
  });

  it('needs the control token', async () => {
    const res = await fetch(`${server.url}/__mock/faults`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });
});
