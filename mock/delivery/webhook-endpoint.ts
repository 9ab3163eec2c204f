import { DEVICE_SECRET_PATTERN, EVENT_NAMES, type EventName, TENANT_SECRET_PATTERN } from '../../src/schemas/events.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { randomHex } from '../shared/random-text.js';

/** The events a tenant endpoint receives when none are selected (the catalog's "on" events). */
export const DEFAULT_TENANT_EVENTS: readonly EventName[] = ['message.received', 'device.status'];

/** Where one kind of event goes: a receiver URL, the secret it is sent with, and the events selected for it. */
export interface WebhookEndpoint {
  /** `tenant` (workspace default, `whsec_live_` secret) or `device` (override, `whsec_dev_` secret). */
  readonly kind: 'tenant' | 'device';
  /** The receiver URL. */
  readonly url: string;
  /** The secret sent in `X-Service-Secret`. */
  readonly secret: string;
  /** Selected events; for a device endpoint, null means "inherit the tenant's selection". */
  readonly events: readonly EventName[] | null;
}

/** What a caller passes to configure an endpoint. */
export interface WebhookEndpointInput {
  /**
   * The receiver URL: HTTPS, or plain http on a loopback host (127.0.0.0/8, localhost, [::1]) for local tests, or on
   * any host when the gateway allows http receivers (`allowHttpReceivers`, `--allow-http-receivers`).
   */
  url: string;
  /** The secret; generated in the right shape when omitted. */
  secret?: string;
  /** Events to deliver; default: the catalog's "on" events for a tenant, the tenant's selection for a device. */
  events?: readonly string[];
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Checks a receiver URL: HTTPS as the service's documentation requires, except loopback hosts, which may use plain http, and any host
 * over plain http when `allowHttp` is on (receivers in containers: `http://receiver:3000/webhooks`).
 */
export function checkReceiverUrl(url: unknown, field = 'url', allowHttp = false): string {
  if (typeof url !== 'string' || url.length === 0)
    throw new GatewayInputError(field, 'is required and must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GatewayInputError(field, 'must be an absolute URL such as https://example.com/webhooks');
  }
  if (parsed.protocol === 'https:') return parsed.href;
  if (parsed.protocol === 'http:' && (allowHttp || LOOPBACK.test(parsed.hostname))) return parsed.href;
  throw new GatewayInputError(
    field,
    'must use HTTPS (the gateway only delivers to valid HTTPS URLs); plain http is accepted for loopback hosts (127.0.0.1, localhost, [::1]), and for any host when the mock allows it: start it with --allow-http-receivers, or pass gateway: { allowHttpReceivers: true } (e.g. for receivers in docker-compose or Kubernetes)',
  );
}

/** Checks an event selection against the catalog. */
export function checkEventSelection(events: unknown, field = 'events'): EventName[] {
  if (!Array.isArray(events))
    throw new GatewayInputError(field, `must be an array of event names (${EVENT_NAMES.join(', ')})`);
  for (const [i, name] of events.entries()) {
    if (!(EVENT_NAMES as readonly unknown[]).includes(name)) {
      throw new GatewayInputError(`${field}[${i}]`, `must be one of ${EVENT_NAMES.join(', ')}`);
    }
  }
  return [...new Set(events as EventName[])];
}

/** Builds a validated endpoint, generating a secret of the right shape when none is given. */
export function createWebhookEndpoint(
  kind: 'tenant' | 'device',
  input: WebhookEndpointInput,
  random: () => number,
  allowHttp = false,
): WebhookEndpoint {
  if (typeof input !== 'object' || input === null) throw new GatewayInputError('body', 'must be a JSON object');
  const url = checkReceiverUrl(input.url, 'url', allowHttp);
  const pattern = kind === 'tenant' ? TENANT_SECRET_PATTERN : DEVICE_SECRET_PATTERN;
  const prefix = kind === 'tenant' ? 'whsec_live_' : 'whsec_dev_';
  let secret: string;
  if (input.secret === undefined) secret = prefix + randomHex(32, random);
  else if (typeof input.secret !== 'string' || !pattern.test(input.secret)) {
    throw new GatewayInputError('secret', `must be "${prefix}" followed by 32 hex characters for a ${kind} endpoint`);
  } else secret = input.secret;
  let events: EventName[] | null;
  if (input.events === undefined || (kind === 'device' && input.events.length === 0)) {
    events = kind === 'tenant' ? [...DEFAULT_TENANT_EVENTS] : null;
  } else events = checkEventSelection(input.events);
  return { kind, url, secret, events };
}
