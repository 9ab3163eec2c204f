// Checks webhook deliveries the gateway sends (through `linkgate proxy --receiver`) against the service's documentation: the headers every
// delivery carries and each event's schema, strictly; and, across deliveries, whether the attempts of one event keep
// their delivery id (the service's documentation) or get a new one each (the perAttemptDeliveryIds variant), which only deliveries show.
import { eventIdentity } from '../../src/webhooks/dedupe-key.js';
import { DEFAULT_HEADER_PREFIX, WEBHOOK_USER_AGENT } from '../../src/webhooks/delivery-headers.js';
import { validateEvent } from '../../src/webhooks/parse.js';
import type { Exchange } from './exchange-check.js';
import type { ExchangeVerdict, Finding } from './findings.js';
import { EVENT_NAMES, EVENT_SCHEMAS } from './operation-table.js';
import { compareShape, showValue } from './shape-check.js';

/** The operation a delivery is tallied under: `webhook message.received`, or `webhook` when its event is unreadable. */
export const deliveryOperation = (event: string | undefined): string =>
  event === undefined ? 'webhook' : `webhook ${event}`;

/** Every operation id a delivery can be tallied under, for --ignore in receiver mode. */
export const DELIVERY_OPERATIONS: readonly string[] = ['webhook', ...EVENT_NAMES.map((e) => deliveryOperation(e))];

/** What the deliveries seen so far say about delivery ids across the attempts of one event. */
export interface DeliveryIdVerdict {
  /** Deliveries checked. */
  deliveries: number;
  /** Events (by their own identity) delivered more than once. */
  repeatedEvents: number;
  /** Of those, events whose attempts all carried one delivery id (the service's documentation). */
  keptId: number;
  /** Of those, events whose attempts carried different delivery ids (the perAttemptDeliveryIds variant). */
  changedId: number;
  /** One event that changed ids, as `message.received of device dev_1: 2 delivery ids`, for the report. */
  example?: string;
}

/** Reads each delivery into findings and follows the delivery ids of each event across its attempts. */
export class DeliveryChecker {
  readonly #prefix: string;
  /** Event identity to the delivery ids its attempts carried, and how many attempts there were. */
  readonly #events = new Map<string, { ids: Set<string>; attempts: number; label: string }>();
  #deliveries = 0;

  /** @param headerPrefix the deployment's header prefix (`X-Service-` in the service's documentation) */
  constructor(headerPrefix = DEFAULT_HEADER_PREFIX) {
    this.#prefix = headerPrefix;
  }

  /**
   * Checks one forwarded delivery: the request the gateway sent (headers, body). Its verdict names
   * perAttemptDeliveryIds when this attempt's delivery id differs from an earlier attempt of the same event.
   */
  check(exchange: Exchange): ExchangeVerdict {
    this.#deliveries++;
    const path = exchange.url.split('?')[0] as string;
    const headers = lowerCased(exchange.requestHeaders);
    const findings: Finding[] = [];
    let body: unknown;
    try {
      body = exchange.requestBody === undefined ? undefined : JSON.parse(exchange.requestBody);
    } catch {
      body = undefined;
    }
    const event =
      typeof (body as { event?: unknown })?.event === 'string' ? (body as { event: string }).event : undefined;
    const operation = deliveryOperation(event);
    const add = (field: string, kind: Finding['kind'], expected: string, seen: string) =>
      findings.push({ side: 'request', operation, method: exchange.method, path, field, kind, expected, seen });

    if (exchange.method !== 'POST') add('method', 'operation', 'POST', exchange.method);
    this.#checkHeaders(headers, body, add);
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      add('(body)', 'body', 'a JSON object { event, device_id, timestamp, data }', describeBody(exchange.requestBody));
      return { operation, findings, variants: [] };
    }
    const schema =
      event !== undefined && Object.hasOwn(EVENT_SCHEMAS, event)
        ? EVENT_SCHEMAS[event as keyof typeof EVENT_SCHEMAS]
        : undefined;
    if (!schema) {
      add('event', 'rule', `one of ${EVENT_NAMES.join(', ')}`, showValue(event));
      return { operation, findings, variants: [] };
    }
    for (const d of compareShape(schema, body)) add(d.path, d.kind, d.expected, d.seen);
    const deliveryId = headers[`${this.#prefix}delivery-id`.toLowerCase()];
    return { operation, findings, variants: this.#follow(body, deliveryId) ? ['perAttemptDeliveryIds'] : [] };
  }

  /** What the deliveries so far say about delivery ids across attempts. */
  get deliveryIds(): DeliveryIdVerdict {
    let repeatedEvents = 0;
    let keptId = 0;
    let changedId = 0;
    let example: string | undefined;
    for (const entry of this.#events.values()) {
      if (entry.attempts < 2) continue;
      repeatedEvents++;
      if (entry.ids.size > 1) {
        changedId++;
        example ??= `${entry.label}: ${entry.attempts} attempts, ${entry.ids.size} delivery ids`;
      } else keptId++;
    }
    return { deliveries: this.#deliveries, repeatedEvents, keptId, changedId, ...(example && { example }) };
  }

  /** Records the attempt under its event's identity; true when the event was seen before with another delivery id. */
  #follow(body: object, deliveryId: string | undefined): boolean {
    let identity: string | undefined;
    let label = '';
    try {
      const parsed = validateEvent(body);
      identity = eventIdentity(parsed);
      label = `${parsed.event} of device ${parsed.device_id}`;
    } catch {
      // A delivery its schema refuses has no identity to follow; its findings say why.
      return false;
    }
    if (identity === undefined || deliveryId === undefined || deliveryId === '') return false;
    let entry = this.#events.get(identity);
    if (!entry) {
      entry = { ids: new Set(), attempts: 0, label };
      this.#events.set(identity, entry);
    }
    entry.attempts++;
    const isNew = !entry.ids.has(deliveryId);
    entry.ids.add(deliveryId);
    return isNew && entry.ids.size > 1;
  }

  /** The headers of the documented "Request headers on every delivery": present, and agreeing with the body. */
  #checkHeaders(
    headers: Record<string, string>,
    body: unknown,
    add: (field: string, kind: Finding['kind'], expected: string, seen: string) => void,
  ): void {
    const p = this.#prefix;
    const seen = (name: string) => showValue(headers[name.toLowerCase()]);
    const contentType = headers['content-type'];
    if (!contentType || !/^application\/json\b/i.test(contentType))
      add('header Content-Type', 'header', '"application/json"', seen('content-type'));
    if (headers['user-agent'] !== WEBHOOK_USER_AGENT)
      add('header User-Agent', 'header', JSON.stringify(WEBHOOK_USER_AGENT), seen('user-agent'));
    // The secret's value is never shown: only whether it came.
    if (!headers[`${p}secret`.toLowerCase()]) add(`header ${p}Secret`, 'header', 'the webhook secret', 'absent');
    if (!headers[`${p}delivery-id`.toLowerCase()])
      add(`header ${p}Delivery-ID`, 'header', 'a delivery id', seen(`${p}delivery-id`));
    const envelope = (body ?? {}) as { event?: unknown; device_id?: unknown };
    const agrees = (name: string, value: unknown, what: string) => {
      const header = headers[`${p}${name}`.toLowerCase()];
      if (header === undefined || (typeof value === 'string' && header !== value))
        add(
          `header ${p}${name}`,
          'header',
          typeof value === 'string' ? `${JSON.stringify(value)} (${what})` : what,
          seen(`${p}${name}`),
        );
    };
    agrees('Event', envelope.event, "the body's event");
    agrees('Device-ID', envelope.device_id, "the body's device_id");
    const timestamp = headers[`${p}timestamp`.toLowerCase()];
    if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
      add(`header ${p}Timestamp`, 'header', 'Unix seconds of the attempt', seen(`${p}timestamp`));
  }
}

function lowerCased(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

function describeBody(text: string | undefined): string {
  if (text === undefined) return 'a body too large to check';
  if (text.trim() === '') return 'an empty body';
  try {
    return showValue(JSON.parse(text));
  } catch {
    return 'text that is not JSON';
  }
}
