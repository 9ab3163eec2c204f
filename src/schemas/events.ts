// Webhook payloads, written once on zod/mini so a receiver bundled for a browser or an edge ships no classic zod;
// on Node, parse.ts compiles them (src/webhooks/compiled-parsers.node.ts) for throughput. The browser SDK never
// imports this file at run time.
import { en } from 'zod/locales';
import * as z from 'zod/mini';

/**
 * A payload record read tolerantly: fields the gateway adds pass through at run time, while the type lists only the
 * known ones, so a typo such as `data.sendr` does not compile (as `entity` does for the management records).
 */
const record = <T extends z.core.$ZodShape>(shape: T) =>
  z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;

// Classic zod sets its English messages on first use (when no locale is set) and zod/mini ships none: set them the same
// way, so a payload's issues read as they did on classic zod ("Invalid input: expected string, received number").
if (!z.config().localeError) z.config(en());

/** Tenant-level webhook secret shape: `whsec_live_` + 32 hex characters. */
export const TENANT_SECRET_PATTERN = /^whsec_live_[0-9a-f]{32}$/i;
/** Device-level webhook secret shape: `whsec_dev_` + 32 hex characters. */
export const DEVICE_SECRET_PATTERN = /^whsec_dev_[0-9a-f]{32}$/i;

/** The events in the spec's catalog. */
export const EVENT_NAMES = ['message.received', 'message.ack', 'message.sent', 'device.status', 'device.qr'] as const;
/** An event name from the catalog. */
export type EventName = (typeof EVENT_NAMES)[number];

/** Receipt statuses and their codes (spec, message.ack). */
export const ACK_STATUS_CODES = { sent: 1, delivered: 2, read: 3, played: 4 } as const;

/** Attachment of an inbound message. */
export const Media = record({
  type: z.string(),
  url: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  file_size: z.number().check(z.int(), z.nonnegative()),
});
/** Attachment of an inbound message. */
export type Media = z.infer<typeof Media>;

/**
 * `message.received` data. The spec does not say which fields are required; linkgate requires the ids, sender and
 * time, and reads `media_error` (decision: where the gateway reports dropped media) when present.
 */
export const MessageReceivedData = record({
  message_id: z.string(),
  sender: z.string(),
  sender_jid: z.string(),
  push_name: z.optional(z.string()),
  text: z.optional(z.string()),
  has_media: z.boolean(),
  media: z.optional(Media),
  media_error: z.optional(z.string()),
  timestamp: z.number().check(z.int()),
});

/** `message.ack` data: all fields required; `status_code` 1-4 matches `status`. */
export const MessageAckData = record({
  message_id: z.string(),
  chat_jid: z.string(),
  recipient: z.string(),
  status: z.enum(['sent', 'delivered', 'read', 'played']),
  status_code: z.number().check(z.int(), z.minimum(1), z.maximum(4)),
  timestamp: z.number().check(z.int()),
}).check(
  z.refine((d) => ACK_STATUS_CODES[d.status] === d.status_code, {
    message: 'status_code must match status (1 sent, 2 delivered, 3 read, 4 played)',
    path: ['status_code'],
  }),
);

/** `message.sent` data (observed behaviour). */
export const MessageSentData = record({
  message_id: z.string(),
  recipient: z.string(),
  recipient_jid: z.string(),
  text: z.optional(z.string()),
  status: z.string(),
  timestamp: z.number().check(z.int()),
});

/** The device statuses the spec documents; the gateway may send others (e.g. `COOLDOWN`), which are accepted. */
export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE', 'HIBERNATED', 'LOGGED_OUT'] as const;
/** A documented device status. */
export type DocumentedDeviceStatus = (typeof DEVICE_STATUSES)[number];

/** `device.status` data (observed behaviour); unknown status strings (e.g. `COOLDOWN`) are accepted. */
export const DeviceStatusData = record({
  device_name: z.optional(z.string()),
  phone: z.optional(z.string()),
  status: z.string(),
  reason: z.optional(z.nullable(z.string())),
  heat_score: z.optional(z.number().check(z.minimum(0), z.maximum(100))),
});

/** `device.qr` data: all fields required; the image is a base64 PNG data URI. */
export const DeviceQrData = record({
  qr_code: z.string(),
  qr_image_url: z.string().check(z.startsWith('data:image/png;base64,')),
  attempt: z.number().check(z.int(), z.minimum(1), z.maximum(5)),
  expires_in: z.number().check(z.int(), z.positive()),
});

const envelope = <E extends EventName, D extends z.ZodMiniType>(event: E, data: D) =>
  record({ event: z.literal(event), device_id: z.string(), timestamp: z.number().check(z.int()), data });

/** A `message.received` delivery. */
export const MessageReceivedEvent = envelope('message.received', MessageReceivedData);
/** A `message.ack` delivery. */
export const MessageAckEvent = envelope('message.ack', MessageAckData);
/** A `message.sent` delivery. */
export const MessageSentEvent = envelope('message.sent', MessageSentData);
/** A `device.status` delivery. */
export const DeviceStatusEvent = envelope('device.status', DeviceStatusData);
/** A `device.qr` delivery. */
export const DeviceQrEvent = envelope('device.qr', DeviceQrData);

/** Any event in the catalog, discriminated on `event`. */
export const WebhookEvent = /* @__PURE__ */ z.discriminatedUnion('event', [
  MessageReceivedEvent,
  MessageAckEvent,
  MessageSentEvent,
  DeviceStatusEvent,
  DeviceQrEvent,
]);
/** Any event in the catalog. */
export type WebhookEvent = z.infer<typeof WebhookEvent>;
/** A `message.received` delivery. */
export type MessageReceivedEvent = z.infer<typeof MessageReceivedEvent>;
/** A `message.ack` delivery. */
export type MessageAckEvent = z.infer<typeof MessageAckEvent>;
/** A `message.sent` delivery. */
export type MessageSentEvent = z.infer<typeof MessageSentEvent>;
/** A `device.status` delivery. */
export type DeviceStatusEvent = z.infer<typeof DeviceStatusEvent>;
/** A `device.qr` delivery. */
export type DeviceQrEvent = z.infer<typeof DeviceQrEvent>;

/** The envelope every event shares, for events outside the catalog. */
export const EventEnvelope = z.looseObject({
  event: z.string(),
  device_id: z.string(),
  timestamp: z.number().check(z.int()),
  data: z.record(z.string(), z.unknown()),
});
/** The envelope every event shares. */
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** Maps each event name to its typed delivery. */
export type EventMap = {
  [E in WebhookEvent as E['event']]: E;
};

/** The schema of each event in the catalog, by name (a lookup is faster than trying a union). */
export const EVENT_SCHEMAS = {
  'message.received': MessageReceivedEvent,
  'message.ack': MessageAckEvent,
  'message.sent': MessageSentEvent,
  'device.status': DeviceStatusEvent,
  'device.qr': DeviceQrEvent,
} as const satisfies { [E in EventName]: z.ZodMiniType<EventMap[E]> };
