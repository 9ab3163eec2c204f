import type { ParsedWebhookEvent } from './parse.js';

/**
 * What `dedupe` recognises a repeated delivery by:
 * - `'deliveryId'`: the `X-Service-Delivery-ID` header, which the documented gateway keeps across retries and replays;
 * - `'event'`: the event's own identity (per event type: device, message id, status...; the README's Decisions list
 *   the fields), for gateways that send every attempt with a new delivery id;
 * - a function of the event and the delivery id returning the key, for your own rule.
 */
export type DedupeKeyOption =
  | 'deliveryId'
  | 'event'
  | ((event: ParsedWebhookEvent, deliveryId: string | undefined) => string);

/**
 * The fields that identify one event of each kind, so two deliveries of the same event get the same key whatever
 * their delivery ids; the envelope's `timestamp` is when the gateway processed the event, the same on every retry.
 *
 * | event | identity |
 * |---|---|
 * | message.received | device, message id |
 * | message.sent | device, message id, status |
 * | message.ack | device, message id, status (each receipt state is its own event) |
 * | device.status | device, status, envelope timestamp (a device goes ONLINE many times) |
 * | device.qr | device, the frame's qr_code (each frame shows a new code) |
 *
 * Events outside the catalog have no known identity and are keyed by their delivery id.
 */
export function eventIdentity(event: ParsedWebhookEvent): string | undefined {
  if (!event.known) return undefined;
  switch (event.event) {
    case 'message.received':
      return join(event.event, event.device_id, event.data.message_id);
    case 'message.sent':
      return join(event.event, event.device_id, event.data.message_id, event.data.status);
    case 'message.ack':
      return join(event.event, event.device_id, event.data.message_id, event.data.status);
    case 'device.status':
      return join(event.event, event.device_id, event.data.status, String(event.timestamp));
    case 'device.qr':
      return join(event.event, event.device_id, event.data.qr_code);
  }
}

/** Parts joined with `:`, each escaped, so ids that contain `:` cannot make two different events collide. */
function join(...parts: string[]): string {
  return parts.map(encodeURIComponent).join(':');
}

/** Checks the option once, at set-up. */
export function checkDedupeKey(option: unknown): DedupeKeyOption {
  if (option === undefined) return 'deliveryId';
  if (option === 'deliveryId' || option === 'event' || typeof option === 'function') {
    return option as DedupeKeyOption;
  }
  throw new TypeError(
    `options.dedupeKey must be 'deliveryId', 'event' or a function (event, deliveryId) => key; got ${typeof option === 'string' ? JSON.stringify(option) : typeof option}.`,
  );
}

/**
 * The key one delivery is deduped by, or undefined when it has none (no delivery id and no known identity): such a
 * delivery is handled, never dropped.
 */
export function dedupeKeyOf(
  option: DedupeKeyOption,
  event: ParsedWebhookEvent,
  deliveryId: string | undefined,
): string | undefined {
  if (option === 'deliveryId') return deliveryId;
  if (option === 'event') return eventIdentity(event) ?? deliveryId;
  const key = option(event, deliveryId);
  if (typeof key !== 'string' || key === '') {
    throw new TypeError(
      `options.dedupeKey returned ${typeof key === 'string' ? 'an empty string' : typeof key}; it must return a non-empty string.`,
    );
  }
  return key;
}
