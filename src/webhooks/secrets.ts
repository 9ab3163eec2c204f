import { utf8 } from '../shared/constant-time.js';
import { DEVICE_SECRET_PATTERN, TENANT_SECRET_PATTERN } from '../shared/secret-patterns.js';

/** One secret, or several during a rotation (any of them may match). */
export type SecretList = string | readonly string[];

/** Tenant secret plus device overrides (spec, Routing): a device listed here must present its own secret. */
export interface TenantAndDeviceSecrets {
  /** The workspace secret(s), `whsec_live_…`, presented by every device without its own webhook. */
  tenant?: SecretList;
  /** Device id to that device's secret(s), `whsec_dev_…`. */
  devices?: Readonly<Record<string, SecretList>>;
}

/**
 * The secret(s) a receiver accepts: one `whsec_live_…` / `whsec_dev_…` string, a list during rotation, or tenant and
 * device secrets together.
 */
export type WebhookSecretOption = SecretList | TenantAndDeviceSecrets;

/** The configured secrets as bytes, ready for constant-time comparison. */
export interface SecretBook {
  /** True when some device has its own secret, so the device id header decides which secret applies. */
  readonly hasDeviceSecrets: boolean;
  /** The secrets a delivery for `deviceId` may present. */
  candidatesFor(deviceId: string | undefined): readonly Uint8Array[];
}

const TENANT_RULE = 'expected whsec_live_ followed by 32 hex characters';
const DEVICE_RULE = 'expected whsec_dev_ followed by 32 hex characters';
const ANY_RULE = 'expected whsec_live_ or whsec_dev_ followed by 32 hex characters';

/**
 * Validates the configured secrets against their documented shapes and turns them into bytes once, at set-up.
 * Errors name the offending option path (`options.secret.devices['dev-1']`) and the rule, never the value.
 */
export function compileSecrets(option: WebhookSecretOption | undefined, where = 'options.secret'): SecretBook {
  if (option === undefined || option === null) {
    throw new TypeError(
      `${where} is required: pass the webhook secret from the dashboard (whsec_live_… or whsec_dev_…), a list of them, or { tenant, devices }.`,
    );
  }
  if (typeof option === 'string' || Array.isArray(option)) {
    const all = secretList(option as SecretList, where, 'any');
    return { hasDeviceSecrets: false, candidatesFor: () => all };
  }
  if (typeof option !== 'object') {
    throw new TypeError(`${where} must be a string, a list of strings or { tenant, devices }; got ${typeof option}.`);
  }
  const { tenant, devices } = option as TenantAndDeviceSecrets;
  const tenantBytes = tenant === undefined ? [] : secretList(tenant, `${where}.tenant`, 'tenant');
  const byDevice = new Map<string, readonly Uint8Array[]>();
  if (devices !== undefined) {
    if (devices === null || typeof devices !== 'object' || Array.isArray(devices)) {
      throw new TypeError(`${where}.devices must be an object of device id to secret.`);
    }
    for (const [deviceId, secrets] of Object.entries(devices)) {
      byDevice.set(deviceId, secretList(secrets, `${where}.devices[${quote(deviceId)}]`, 'device'));
    }
  }
  if (tenantBytes.length === 0 && byDevice.size === 0) {
    throw new TypeError(`${where} has neither a tenant secret nor device secrets; configure at least one.`);
  }
  return {
    hasDeviceSecrets: byDevice.size > 0,
    candidatesFor: (deviceId) => (deviceId !== undefined && byDevice.get(deviceId)) || tenantBytes,
  };
}

function secretList(value: SecretList, where: string, kind: 'tenant' | 'device' | 'any'): Uint8Array[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) {
    throw new TypeError(`${where} must be a secret string or a list of them; got ${typeof value}.`);
  }
  if (list.length === 0) throw new TypeError(`${where} is an empty list; give at least one secret.`);
  return list.map((secret, i) => {
    const path = typeof value === 'string' ? where : `${where}[${i}]`;
    checkShape(secret, path, kind);
    return utf8(secret);
  });
}

function checkShape(secret: unknown, where: string, kind: 'tenant' | 'device' | 'any'): void {
  if (typeof secret !== 'string') throw new TypeError(`${where} must be a string; got ${typeof secret}.`);
  const ok =
    kind === 'tenant'
      ? TENANT_SECRET_PATTERN.test(secret)
      : kind === 'device'
        ? DEVICE_SECRET_PATTERN.test(secret)
        : TENANT_SECRET_PATTERN.test(secret) || DEVICE_SECRET_PATTERN.test(secret);
  if (ok) return;
  const what = kind === 'tenant' ? 'a tenant secret' : kind === 'device' ? 'a device secret' : 'a webhook secret';
  const rule = kind === 'tenant' ? TENANT_RULE : kind === 'device' ? DEVICE_RULE : ANY_RULE;
  // Hints that help without revealing any character of the value.
  const hint =
    secret.trim() !== secret
      ? ' (it has leading or trailing whitespace)'
      : secret.length === 0
        ? ' (it is empty; is the environment variable set?)'
        : kind === 'tenant' && DEVICE_SECRET_PATTERN.test(secret)
          ? ' (it is a device secret; put it under devices)'
          : kind === 'device' && TENANT_SECRET_PATTERN.test(secret)
            ? ' (it is a tenant secret; put it under tenant)'
            : '';
  throw new TypeError(`${where} is not ${what}: ${rule}${hint}.`);
}

/** A device id as a JS string literal in single quotes, as users write it in their config. */
function quote(id: string): string {
  return `'${id.replace(/[\\']/g, '\\$&')}'`;
}
