// Webhook payloads, written once on zod/mini. The receiver parses with them: as written in browsers and edges, compiled
// by zod's `compile` under Node (src/webhooks/node-parsers.ts). zod/mini ships no messages: parses pass
// src/webhooks/issue-messages.ts's English ones (nothing is set globally). Every call
// that builds a schema is marked pure, arguments included (esbuild keeps an unmarked argument call, and a property read
// of an import, hence `ackStatusCode` imported by name), so a bundle that only reads the names and constants here
// drops every schema. The browser SDK never imports this file at run time.
import * as z from 'zod/mini';
import { EVENT_NAMES } from '../shared/event-names.js';
import { ACK_STATUS_CODES, ackStatusCode, type EventRefinement } from '../shared/event-refinements.js';
import { DEVICE_SECRET_PATTERN, TENANT_SECRET_PATTERN } from '../shared/secret-patterns.js';

export { ACK_STATUS_CODES, DEVICE_SECRET_PATTERN, EVENT_NAMES, TENANT_SECRET_PATTERN };

/**
 * A payload record read tolerantly: fields the gateway adds pass through at run time, while the type lists only the
 * known ones, so a typo such as `data.sendr` does not compile (as `entity` does for the management records).
 */
const record = <T extends z.core.$ZodShape>(shape: T) =>
  z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;

/**
 * `schema` with an object-level rule of src/shared/event-refinements.ts. A helper rather than a `.check()` on the
 * schema, so that one pure call covers it (esbuild keeps a method call on a pure call's result).
 */
const refined = <S extends z.ZodMiniType>(schema: S, rule: EventRefinement<z.output<S>>): S =>
  schema.check(z.refine(rule.test, { message: rule.message, path: rule.path }));

/** An event name from the catalog. */
export type EventName = (typeof EVENT_NAMES)[number];

/** Attachment of an inbound message. */
export const Media = /* @__PURE__ */ record({
  type: /* @__PURE__ */ z.string(),
  url: /* @__PURE__ */ z.string(),
  file_name: /* @__PURE__ */ z.string(),
  mime_type: /* @__PURE__ */ z.string(),
  file_size: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.nonnegative()),
});
/** Attachment of an inbound message. */
export type Media = z.infer<typeof Media>;

/**
 * `message.received` data. The spec does not say which fields are required; linkgate requires the ids, sender and
 * time, and reads `media_error` (decision: where the gateway reports dropped media) when present.
 */
export const MessageReceivedData = /* @__PURE__ */ record({
  message_id: /* @__PURE__ */ z.string(),
  sender: /* @__PURE__ */ z.string(),
  sender_jid: /* @__PURE__ */ z.string(),
  push_name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  text: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  has_media: /* @__PURE__ */ z.boolean(),
  media: /* @__PURE__ */ z.optional(Media),
  media_error: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  timestamp: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int()),
});

/** `message.ack` data: all fields required; `status_code` 1-4 matches `status`. */
export const MessageAckData = /* @__PURE__ */ refined(
  /* @__PURE__ */ record({
    message_id: /* @__PURE__ */ z.string(),
    chat_jid: /* @__PURE__ */ z.string(),
    recipient: /* @__PURE__ */ z.string(),
    status: /* @__PURE__ */ z.enum(['sent', 'delivered', 'read', 'played']),
    status_code: /* @__PURE__ */ z
      .number()
      .check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.minimum(1), /* @__PURE__ */ z.maximum(4)),
    timestamp: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int()),
  }),
  ackStatusCode,
);

/** `message.sent` data (observed behaviour). */
export const MessageSentData = /* @__PURE__ */ record({
  message_id: /* @__PURE__ */ z.string(),
  recipient: /* @__PURE__ */ z.string(),
  recipient_jid: /* @__PURE__ */ z.string(),
  text: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  status: /* @__PURE__ */ z.string(),
  timestamp: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int()),
});

/** The device statuses the service's documentation documents; the gateway may send others (e.g. `COOLDOWN`), which are accepted. */
export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE', 'HIBERNATED', 'LOGGED_OUT'] as const;
/** A documented device status. */
export type DocumentedDeviceStatus = (typeof DEVICE_STATUSES)[number];

/** `device.status` data (observed behaviour); unknown status strings (e.g. `COOLDOWN`) are accepted. */
export const DeviceStatusData = /* @__PURE__ */ record({
  device_name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  phone: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  status: /* @__PURE__ */ z.string(),
  reason: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
  heat_score: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.minimum(0), /* @__PURE__ */ z.maximum(100)),
  ),
});

/** `device.qr` data: all fields required; the image is a base64 PNG data URI. */
export const DeviceQrData = /* @__PURE__ */ record({
  qr_code: /* @__PURE__ */ z.string(),
  qr_image_url: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.startsWith('data:image/png;base64,')),
  attempt: /* @__PURE__ */ z
    .number()
    .check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.minimum(1), /* @__PURE__ */ z.maximum(5)),
  expires_in: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.positive()),
});

const envelope = <E extends EventName, D extends z.ZodMiniType>(event: E, data: D) =>
  record({ event: z.literal(event), device_id: z.string(), timestamp: z.number().check(z.int()), data });

/** A `message.received` delivery. */
export const MessageReceivedEvent = /* @__PURE__ */ envelope('message.received', MessageReceivedData);
/** A `message.ack` delivery. */
export const MessageAckEvent = /* @__PURE__ */ envelope('message.ack', MessageAckData);
/** A `message.sent` delivery. */
export const MessageSentEvent = /* @__PURE__ */ envelope('message.sent', MessageSentData);
/** A `device.status` delivery. */
export const DeviceStatusEvent = /* @__PURE__ */ envelope('device.status', DeviceStatusData);
/** A `device.qr` delivery. */
export const DeviceQrEvent = /* @__PURE__ */ envelope('device.qr', DeviceQrData);

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
export const EventEnvelope = /* @__PURE__ */ z.looseObject({
  event: /* @__PURE__ */ z.string(),
  device_id: /* @__PURE__ */ z.string(),
  timestamp: /* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int()),
  data: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
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
