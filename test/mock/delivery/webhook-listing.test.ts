import { createMockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

const TOKEN = 'ctl-listing-test';

describe('GET /__mock/webhooks', () => {
  const backend = createMockBackend({ gateway: { controlToken: TOKEN } });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await backend.fetch(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('shows secrets by their prefix unless redact=0 asks for them, having shown each in full once at creation', async () => {
    const tenant = await call('POST', '/__mock/webhooks', { url: 'https://hooks.example.com/t' });
    const device = await call('POST', '/__mock/devices', {});
    const override = await call('POST', '/__mock/webhooks', {
      device_id: device.body.id,
      url: 'https://hooks.example.com/d',
    });
    const secrets = [String(tenant.body.secret), String(override.body.secret)];
    expect(secrets[0]).toMatch(/^whsec_live_[0-9a-f]{32}$/);
    expect(secrets[1]).toMatch(/^whsec_dev_[0-9a-f]{32}$/);

    for (const query of ['', '?redact=1', '?redact=true']) {
      const listed = await call('GET', `/__mock/webhooks${query}`);
      expect(listed.status).toBe(200);
      for (const secret of secrets) expect(JSON.stringify(listed.body)).not.toContain(secret);
      expect(listed.body).toMatchObject({
        tenants: [{ tenant: 'default', url: 'https://hooks.example.com/t', secret: 'whsec_live_[redacted]' }],
        devices: [{ device_id: device.body.id, url: 'https://hooks.example.com/d', secret: 'whsec_dev_[redacted]' }],
      });
    }
    const full = await call('GET', '/__mock/webhooks?redact=0');
    expect(full.body).toMatchObject({ tenants: [{ secret: secrets[0] }], devices: [{ secret: secrets[1] }] });
    expect(await call('GET', '/__mock/webhooks?redact=maybe')).toMatchObject({
      status: 400,
      body: { field: 'redact' },
    });
  });
});
