import * as z from 'zod/mini';
import { lazy } from './lazy.js';
import { Count } from './primitives.js';

/**
 * A failure answer of the management API: `error` is `1` (or `429` when rate limited), with a `message`.
 * Production may send `error` as a string, and adds `Retry-After` (seconds) to rate-limit answers. Marked pure: only
 * the OpenAPI document reads it, so the SDK's bundle drops it.
 */
export const ErrorEnvelope = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    error: z.union([Count, z.boolean()]),
    message: z.optional(z.string()),
    'Retry-After': z.optional(Count),
  }),
);
/** A failure answer of the management API. */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** `{ error: 0, message }`: the answer of update and delete calls. */
export const MessageEnvelope = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    error: Count,
    message: z.optional(z.string()),
  }),
);
/** The answer of update and delete calls. */
export type MessageEnvelope = z.infer<typeof MessageEnvelope>;

/** `{ error: 0, id }`: the answer of create calls. */
export const CreatedEnvelope = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    error: Count,
    id: Count,
  }),
);
/** The answer of create calls. */
export type CreatedEnvelope = z.infer<typeof CreatedEnvelope>;

/** `{ error: 0, data }` around a single record or a non-paged array. */
export function dataEnvelope<T extends z.core.$ZodType>(data: T) {
  return z.looseObject({ error: Count, data });
}
