import type { Clock } from '../core/clock.js';
import type { EventMap, EventName, WebhookEvent } from '../schemas/events.js';
import { deliveryHeaders } from './delivery-headers.js';

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

/** An event given by name and payload; the envelope is filled in from `deviceId` and `timestamp`. */
export type NamedTestEvent = { [E in EventName]: { event: E; data: EventMap[E]['data'] } }[EventName];

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
  /** A new POST `Request` carrying the delivery (a fresh one on every read, so it can be sent twice). */
  readonly request: Request;
}

/**
 * Builds a delivery exactly as the gateway sends it (same headers, via `deliveryHeaders`), so you can unit-test a
 * receiver without the gateway.
 *
 * @example
 * const delivery = createTestDelivery({
 *   event: 'message.received',
 *   data: { message_id: 'm1', sender: '628123', sender_jid: '628123@s.whatsapp.net', has_media: false, timestamp: 1767225600 },
 *   secret: 'whsec_live_' + '0'.repeat(32),
 * });
 * const response = await handler(delivery.request);
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
        data: (options as { data: unknown }).data,
      }
    : (options.event as TestEventObject);
  const deliveryId = options.deliveryId ?? crypto.randomUUID();
  const headers = deliveryHeaders({
    secret: options.secret,
    deliveryId,
    event: event.event,
    deviceId,
    timestamp,
    ...(options.headerPrefix !== undefined && { headerPrefix: options.headerPrefix }),
  });
  const body = JSON.stringify(event);
  const url = options.url ?? 'https://receiver.test/webhooks';
  return {
    headers,
    body,
    deliveryId,
    get request() {
      return new Request(url, { method: 'POST', headers, body });
    },
  };
}
