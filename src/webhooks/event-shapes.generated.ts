// Generated from src/schemas/events.ts by `node scripts/with-node.mjs node --import tsx scripts/event-shapes.ts`: do not edit.
// The browser receiver validates with these rows instead of zod (src/webhooks/event-validation.ts says how to read
// them); test/webhooks/event-shapes.test.ts fails when they no longer match the schemas.
import type { EventName } from '../schemas/events.js';
import type { ObjectShape } from './event-validation.js';

/** Each catalog event's shape, envelope and data. */
// biome-ignore format: generated
export const EVENT_SHAPES: { readonly [E in EventName]: ObjectShape } = {
  "message.received": [
    "object",
    {
      "event": ["value", ["message.received"]],
      "device_id": ["string"],
      "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
      "data": [
        "object",
        {
          "message_id": ["string"],
          "sender": ["string"],
          "sender_jid": ["string"],
          "push_name": ["optional", ["string"]],
          "text": ["optional", ["string"]],
          "has_media": ["boolean"],
          "media": [
            "optional",
            [
              "object",
              {
                "type": ["string"],
                "url": ["string"],
                "file_name": ["string"],
                "mime_type": ["string"],
                "file_size": ["number", ["format", "int", -9007199254740991, 9007199254740991], ["min", 0, true]],
              },
              true,
            ],
          ],
          "media_error": ["optional", ["string"]],
          "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
        },
        true,
      ],
    },
    true,
  ],
  "message.ack": [
    "object",
    {
      "event": ["value", ["message.ack"]],
      "device_id": ["string"],
      "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
      "data": [
        "object",
        {
          "message_id": ["string"],
          "chat_jid": ["string"],
          "recipient": ["string"],
          "status": ["value", ["sent", "delivered", "read", "played"]],
          "status_code": ["number", ["format", "int", -9007199254740991, 9007199254740991], ["min", 1, true], ["max", 4, true]],
          "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
        },
        true,
        "ackStatusCode",
      ],
    },
    true,
  ],
  "message.sent": [
    "object",
    {
      "event": ["value", ["message.sent"]],
      "device_id": ["string"],
      "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
      "data": [
        "object",
        {
          "message_id": ["string"],
          "recipient": ["string"],
          "recipient_jid": ["string"],
          "text": ["optional", ["string"]],
          "status": ["string"],
          "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
        },
        true,
      ],
    },
    true,
  ],
  "device.status": [
    "object",
    {
      "event": ["value", ["device.status"]],
      "device_id": ["string"],
      "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
      "data": [
        "object",
        {
          "device_name": ["optional", ["string"]],
          "phone": ["optional", ["string"]],
          "status": ["string"],
          "reason": ["optional", ["nullable", ["string"]]],
          "heat_score": ["optional", ["number", ["min", 0, true], ["max", 100, true]]],
        },
        true,
      ],
    },
    true,
  ],
  "device.qr": [
    "object",
    {
      "event": ["value", ["device.qr"]],
      "device_id": ["string"],
      "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
      "data": [
        "object",
        {
          "qr_code": ["string"],
          "qr_image_url": ["string", ["startsWith", "data:image/png;base64,"]],
          "attempt": ["number", ["format", "int", -9007199254740991, 9007199254740991], ["min", 1, true], ["max", 5, true]],
          "expires_in": ["number", ["format", "int", -9007199254740991, 9007199254740991], ["min", 0, false]],
        },
        true,
      ],
    },
    true,
  ],
};

/** The envelope of events outside the catalog. */
// biome-ignore format: generated
export const ENVELOPE_SHAPE: ObjectShape = [
  "object",
  {
    "event": ["string"],
    "device_id": ["string"],
    "timestamp": ["number", ["format", "int", -9007199254740991, 9007199254740991]],
    "data": ["record"],
  },
  true,
];
