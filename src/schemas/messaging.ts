import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { matching, minChars, urlString } from './rules.js';

/**
 * Messaging API keys begin with this fixed prefix (spec: "a fixed service prefix followed by characters").
 * Decision: the service's documentation does not name the prefix; linkgate uses `gw_live_` followed by at least 24 characters of [A-Za-z0-9].
 */
export const MESSAGING_KEY_PREFIX = 'gw_live_';
/** The documented shape of a messaging API key. */
export const MESSAGING_KEY_PATTERN = /^gw_live_[A-Za-z0-9]{24,}$/;

/** Body of `POST /api/v1/wa/messages/send` as observed: `device_id` may be `"auto"`, `phone` is digits. */
export const SendMessage = /* @__PURE__ */ lazy(() =>
  z.object({
    /** The device that sends: required. */
    device_id: z.string().check(minChars(1, 'is required')),
    /** The recipient: 6 to 20 digits, no `+` or spaces (E.164 without `+`). */
    phone: z.string().check(matching(/^\d{6,20}$/, 'must be 6-20 digits, no + or spaces')),
    /** The text, or the media's caption. */
    message: z.string(),
    /** Media to attach: a URL, at most 2,048 characters. */
    media_url: z.optional(urlString('must be a URL')),
  }),
);
/** Body of `POST /api/v1/wa/messages/send`. */
export type SendMessage = z.infer<typeof SendMessage>;

/**
 * Answer of `POST /api/v1/wa/messages/send`. Not shown in the service's documentation: typed loosely; the reference mock answers
 * `{ success: true, message, data: { message_id, device_id, phone, status: "queued" } }`.
 */
export const SendMessageResult = /* @__PURE__ */ lazy(() =>
  entity({
    success: z.boolean(),
    message: z.optional(z.string()),
    data: z.optional(
      entity({
        message_id: z.optional(z.string()),
        device_id: z.optional(z.string()),
        phone: z.optional(z.string()),
        status: z.optional(z.string()),
      }),
    ),
  }),
);
/** Answer of `POST /api/v1/wa/messages/send`. */
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** The messaging API's 401 body (spec, Errors). Marked pure: only the OpenAPI document reads it, not the SDK's bundle. */
export const MessagingUnauthorized = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    success: z.literal(false),
    message: z.string(),
    error: z.string(),
  }),
);
/** The messaging API's 401 body. */
export type MessagingUnauthorized = z.infer<typeof MessagingUnauthorized>;

/** The exact 401 body the gateway sends for a missing, unknown or revoked key. */
export const INVALID_API_KEY_BODY = { success: false, message: 'Invalid API Key', error: 'UNAUTHORIZED' } as const;

/** Device connection statuses documented by the service's documentation. */
export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE', 'HIBERNATED', 'LOGGED_OUT'] as const;
/** A documented device status. */
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
