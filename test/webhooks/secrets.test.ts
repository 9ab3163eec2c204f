import { describe, expect, it } from 'vitest';
import {
  createTestDelivery,
  createWebhookVerifier,
  verifyWebhookSync,
  type WebhookSecretOption,
} from '../../src/webhooks/index.js';
import {
  clockAtNow,
  DEVICE_SECRET,
  messageReceived,
  NEXT_TENANT_SECRET,
  NOW_S,
  OTHER_DEVICE_SECRET,
  TENANT_SECRET,
} from './support/fixtures.js';

function attempt(secret: WebhookSecretOption, presented: string, deviceId = 'device-1'): string {
  const { headers, body } = createTestDelivery({
    event: { ...messageReceived, device_id: deviceId },
    secret: presented,
    timestamp: NOW_S,
  });
  try {
    verifyWebhookSync({ headers, body }, { secret, clock: clockAtNow() });
    return 'accepted';
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('which secrets a delivery may present', () => {
  it('accepts the tenant secret', () => {
    expect(attempt(TENANT_SECRET, TENANT_SECRET)).toBe('accepted');
  });

  it('accepts a device secret configured as the single secret of a device endpoint', () => {
    expect(attempt(DEVICE_SECRET, DEVICE_SECRET)).toBe('accepted');
    expect(attempt(DEVICE_SECRET, TENANT_SECRET)).toBe('secret_mismatch');
  });

  it('accepts either secret during a rotation, and neither once removed', () => {
    const rotating = [TENANT_SECRET, NEXT_TENANT_SECRET];
    expect(attempt(rotating, TENANT_SECRET)).toBe('accepted');
    expect(attempt(rotating, NEXT_TENANT_SECRET)).toBe('accepted');
    expect(attempt([NEXT_TENANT_SECRET], TENANT_SECRET)).toBe('secret_mismatch');
  });

  it('makes a device with its own secret present it, and refuses the tenant secret for it', () => {
    const secret = { tenant: TENANT_SECRET, devices: { 'device-1': DEVICE_SECRET } };
    expect(attempt(secret, DEVICE_SECRET, 'device-1')).toBe('accepted');
    expect(attempt(secret, TENANT_SECRET, 'device-1')).toBe('secret_mismatch');
  });

  it('makes devices without their own secret present the tenant secret, not another device secret', () => {
    const secret = { tenant: TENANT_SECRET, devices: { 'device-1': DEVICE_SECRET } };
    expect(attempt(secret, TENANT_SECRET, 'device-2')).toBe('accepted');
    expect(attempt(secret, DEVICE_SECRET, 'device-2')).toBe('secret_mismatch');
  });

  it('rotates tenant and device secrets independently', () => {
    const secret = {
      tenant: [TENANT_SECRET, NEXT_TENANT_SECRET],
      devices: { 'device-1': [DEVICE_SECRET, OTHER_DEVICE_SECRET] },
    };
    expect(attempt(secret, OTHER_DEVICE_SECRET, 'device-1')).toBe('accepted');
    expect(attempt(secret, NEXT_TENANT_SECRET, 'device-3')).toBe('accepted');
  });

  it('refuses every device when only device secrets are configured and the device is not listed', () => {
    expect(attempt({ devices: { 'device-1': DEVICE_SECRET } }, DEVICE_SECRET, 'device-2')).toBe('secret_mismatch');
  });
});

describe('secrets are checked for their documented shape at set-up', () => {
  const setUp = (secret: unknown) => () => createWebhookVerifier({ secret: secret as WebhookSecretOption });

  it('names a bad device secret by its device without printing it', () => {
    const bad = 'whsec_dev_not-hex-at-all-000000000000000';
    expect(setUp({ tenant: TENANT_SECRET, devices: { 'dev-1': bad } })).toThrow(
      `options.secret.devices['dev-1'] is not a device secret: expected whsec_dev_ followed by 32 hex characters.`,
    );
  });

  it('names a bad tenant secret in a rotation list by its position', () => {
    expect(setUp({ tenant: [TENANT_SECRET, 'whsec_live_short'] })).toThrow(
      'options.secret.tenant[1] is not a tenant secret: expected whsec_live_ followed by 32 hex characters.',
    );
  });

  it('says when a tenant secret was put under devices, and the reverse', () => {
    expect(setUp({ devices: { 'dev-1': TENANT_SECRET } })).toThrow(/it is a tenant secret; put it under tenant/);
    expect(setUp({ tenant: DEVICE_SECRET })).toThrow(/it is a device secret; put it under devices/);
  });

  it('says when a secret has surrounding whitespace or is empty', () => {
    expect(setUp(`${TENANT_SECRET}\n`)).toThrow(/leading or trailing whitespace/);
    expect(setUp('')).toThrow(/is empty; is the environment variable set/);
  });

  it('refuses a missing secret, an empty list and an empty object', () => {
    expect(setUp(undefined)).toThrow(/options\.secret is required/);
    expect(setUp([])).toThrow(/options\.secret is an empty list/);
    expect(setUp({})).toThrow(/neither a tenant secret nor device secrets/);
  });

  it('accepts either kind as a plain secret', () => {
    expect(setUp(TENANT_SECRET)).not.toThrow();
    expect(setUp([DEVICE_SECRET, TENANT_SECRET])).not.toThrow();
  });
});
