// The event payloads' rules that a shape cannot state, written once: src/schemas/events.ts refines its zod schemas
// with them, and createTestDelivery pairs the fields they tie together (src/webhooks/payload-overrides.ts). It sits in
// src/shared, beside the clock, because both src/schemas and src/webhooks read it.

/** Receipt statuses and their codes (spec, message.ack). */
export const ACK_STATUS_CODES = { sent: 1, delivered: 2, read: 3, played: 4 } as const;

/** An object-level rule of an event payload: what it tests, the message when it fails, and the field it blames. */
export interface EventRefinement<T> {
  /** True when the payload (already valid field by field) keeps the rule. */
  test: (data: T) => boolean;
  /** The message, which outranks the English map (zod's error precedence). */
  message: string;
  /** Where the issue points, relative to the payload. */
  path: string[];
}

/** `message.ack`: `status_code` 1-4 matches `status`. */
export const ackStatusCode: EventRefinement<{ status: keyof typeof ACK_STATUS_CODES; status_code: number }> = {
  test: (d) => ACK_STATUS_CODES[d.status] === d.status_code,
  message: 'status_code must match status (1 sent, 2 delivered, 3 read, 4 played)',
  path: ['status_code'],
};
