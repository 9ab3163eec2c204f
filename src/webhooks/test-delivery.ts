import * as z from 'zod/mini';
import { valueAt } from '../core/validation.js';
import { EVENT_SCHEMAS, EventEnvelope, type EventMap, type EventName, type WebhookEvent } from '../schemas/events.js';
import type { Clock } from '../shared/clock.js';
import { deliveryHeaders } from './delivery-headers.js';
import { ENGLISH } from './issue-messages.js';
import { isKnownEventName } from './parse.js';
import {
  applyOverrides,
  overridePath,
  type PairedOverride,
  type PayloadOverrides,
  pairedOverrides,
  unknownFieldIssue,
} from './payload-overrides.js';
import { sampleEventData } from './sample-events.js';
import type { WebhookPayloadIssue } from './webhook-errors.js';

/** An event to deliver: a full event object (any name, so unknown events can be tested too). */
export interface TestEventObject {
  /** The event name. */
  event: string;
  /** The device slot. */
  device_id: string;
  /** Unix seconds at which the gateway processed the event. */
  timestamp: number;
  /** The event's payload. */
  data: unknown;
}

/**
 * An event given by name, and its payload or none: without `data`, a realistic payload valid against the event's
 * schema (fresh message id, times at `timestamp`). The envelope is filled in from `deviceId` and `timestamp`.
 */
export type NamedTestEvent = { [E in EventName]: { event: E; data?: EventMap[E]['data'] } }[EventName];

/** What a test delivery carries besides the event. */
export interface TestDeliveryCommon {
  /** The secret to present in `X-Service-Secret` (the gateway sends the one configured for the endpoint). */
  secret: string;
  /** The device id header (and envelope `device_id` for a named event). Defaults to the event's `device_id`, else `'device-1'`. */
  deviceId?: string;
  /**
   * Unix seconds of the attempt, for `X-Service-Timestamp` (and the envelope of a named event).
   * @default the current time of `clock`
   */
  timestamp?: number;
  /**
   * Where the default timestamp comes from: pass the receiver's clock (e.g. a `ManualClock`) so its freshness check
   * accepts the delivery.
   * @default the system clock
   */
  clock?: Pick<Clock, 'now'>;
  /**
   * The delivery id.
   * @default a fresh `crypto.randomUUID()` (the gateway sends ULIDs; receivers must treat the id as opaque, and this
   * entry loads nothing but zod, so it does not carry a ULID library)
   */
  deliveryId?: string;
  /**
   * Header prefix.
   * @default 'X-Service-'
   */
  headerPrefix?: string;
  /**
   * The receiver URL used for `request`.
   * @default 'https://receiver.test/webhooks'
   */
  url?: string;
  /**
   * Fields to change, by dot path from the envelope: `{ 'data.status': 'read', 'data.status_code': 3 }`,
   * `{ device_id: 'dev-2' }`; `undefined` removes a field. Setting one of two fields that must agree sets the other
   * to match (`'data.status': 'read'` also sets `data.status_code` to 3, and the other way round; `paired` lists
   * them); set both to choose both. The `X-Service-Event` and `X-Service-Device-ID` headers
   * follow the body's `event` and `device_id`. The result is checked against the event's schema: an override that
   * makes it invalid, or a path that is no field of the event (a typo), throws a `TypeError` naming the field and the
   * rule, unless `allowInvalid`.
   */
  set?: Readonly<Record<string, unknown>>;
  /**
   * Build the delivery even when `set` made the payload invalid, to test the receiver's own 400; `issues` then lists
   * what is wrong.
   * @default false
   */
  allowInvalid?: boolean;
}

/** Options of {@link createTestDelivery}. */
export type TestDeliveryOptions = TestDeliveryCommon & ({ event: WebhookEvent | TestEventObject } | NamedTestEvent);

/** A delivery built as the gateway would send it. */
export interface TestDelivery {
  /** The headers, exactly as the gateway sends them. */
  headers: Record<string, string>;
  /** The JSON body. */
  body: string;
  /** The delivery id in the headers. */
  deliveryId: string;
  /** The event as sent (the parsed body). */
  payload: TestEventObject;
  /** What is wrong with the payload after `set` (kept with `allowInvalid`); empty when it is valid or `set` was not given. */
  issues: WebhookPayloadIssue[];
  /**
   * Fields `set` did not name, set to agree with one it did: `{ path: 'data.status_code', value: 3, matches:
   * 'data.status' }` for `set: { 'data.status': 'read' }`; empty when `set` named both or neither.
   */
  paired: { path: string; value: unknown; matches: string }[];
  /** A new POST `Request` carrying the delivery (a fresh one on every read, so it can be sent twice). */
  readonly request: Request;
}

/**
 * Builds a delivery exactly as the gateway sends it (same headers, via `deliveryHeaders`), so you can unit-test a
 * receiver without the gateway. Give an event name alone for a realistic payload, and `set` to change fields of it
 * (checked against the event's schema); `linkgate trigger` sends what this builds.
 *
 * @example
 * const delivery = createTestDelivery({
 *   event: 'message.received',
 *   data: { message_id: 'm1', sender: '628123', sender_jid: '628123@s.whatsapp.net', has_media: false, timestamp: 1767225600 },
 *   secret: 'whsec_live_' + '0'.repeat(32),
 * });
 * const response = await handler(delivery.request);
 *
 * @example
 * // A realistic receipt, read: `data.status_code` follows (3); `set: { 'data.status': 'reed' }` would throw naming the field.
 * const read = createTestDelivery({ event: 'message.ack', set: { 'data.status': 'read' }, secret });
 */
export function createTestDelivery(options: TestDeliveryOptions): TestDelivery {
  const timestamp = options.timestamp ?? Math.floor((options.clock?.now() ?? Date.now()) / 1000);
  const named = typeof options.event === 'string';
  const deviceId =
    options.deviceId ?? (named ? 'device-1' : ((options.event as TestEventObject).device_id ?? 'device-1'));
  const event: TestEventObject = named
    ? {
        event: options.event as string,
        device_id: deviceId,
        timestamp,
        data: (options as { data?: unknown }).data ?? sampleData(options.event as string, timestamp),
      }
    : (options.event as TestEventObject);
  const { payload, issues, paired } = options.set
    ? override(event, options.set, options.allowInvalid ?? false)
    : { payload: event, issues: [], paired: [] };
  const deliveryId = options.deliveryId ?? crypto.randomUUID();
  const headers = deliveryHeaders({
    secret: options.secret,
    deliveryId,
    event: typeof payload.event === 'string' ? payload.event : event.event,
    // The header follows an overridden device_id, so receivers comparing the two see one device.
    deviceId:
      options.set && 'device_id' in options.set && typeof payload.device_id === 'string' ? payload.device_id : deviceId,
    timestamp,
    ...(options.headerPrefix !== undefined && { headerPrefix: options.headerPrefix }),
  });
  const body = JSON.stringify(payload);
  const url = options.url ?? 'https://receiver.test/webhooks';
  return {
    headers,
    body,
    deliveryId,
    payload,
    issues,
    paired,
    get request() {
      return new Request(url, { method: 'POST', headers, body });
    },
  };
}

function sampleData(event: string, timestamp: number): unknown {
  if (!isKnownEventName(event)) {
    throw new TypeError(
      `createTestDelivery: options.data is required for "${event}", which is not in the catalog; without it, pass one of ${Object.keys(EVENT_SCHEMAS).join(', ')}.`,
    );
  }
  return sampleEventData(event, timestamp);
}

/**
 * Applies `set` to a JSON copy of the event, and the partners of fields it set alone, and checks the result, throwing
 * on problems unless `allowInvalid`.
 */
function override(
  event: TestEventObject,
  set: PayloadOverrides,
  allowInvalid: boolean,
): { payload: TestEventObject; issues: WebhookPayloadIssue[]; paired: PairedOverride[] } {
  const payload = JSON.parse(JSON.stringify(event)) as TestEventObject;
  applyOverrides(payload as unknown as Record<string, unknown>, set);
  const name = payload.event;
  const paired = pairedOverrides(name, set);
  applyOverrides(
    payload as unknown as Record<string, unknown>,
    Object.fromEntries(paired.map((p) => [p.path, p.value])),
  );
  const schema: z.core.$ZodType = isKnownEventName(name) ? EVENT_SCHEMAS[name] : EventEnvelope;
  const issues: WebhookPayloadIssue[] = [];
  for (const path of Object.keys(set)) {
    const issue = isKnownEventName(name) ? unknownFieldIssue(schema, overridePath(path)) : undefined;
    if (issue) issues.push(issue);
  }
  const result = z.safeParse(schema, payload, ENGLISH);
  if (!result.success) {
    for (const { path, message, code } of result.error.issues) {
      // zod says "expected string, received undefined" for a field an override removed: name the rule instead.
      const missing = code === 'invalid_type' && valueAt(payload, path) === undefined;
      issues.push({ path, message: missing ? 'is required' : message, code });
    }
  }
  if (issues.length > 0 && !allowInvalid) {
    const listed = issues.map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`).join('; ');
    // A field the schema does not know is no error to a receiver (the gateway may add fields), only likely a typo.
    const unknownOnly = issues.every((i) => i.code === 'unrecognized_keys');
    throw new TypeError(
      `createTestDelivery: options.set makes the ${typeof name === 'string' ? name : 'event'} payload invalid: ${listed}. Fix the override, or pass allowInvalid: true to ${unknownOnly ? 'add the field anyway (receivers must accept fields they do not know)' : "send it anyway (to test the receiver's 400)"}.`,
    );
  }
  return { payload, issues, paired };
}
