import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { Count, DateTimeInput, Id } from './primitives.js';
import { optionalField } from './rules.js';

// Both booleans as a literal rather than z.boolean(): plans are the SDK's only booleans, and z.boolean() brings its
// own class into the client bundle (~75 B gzip). Inside these unions a mismatch reads the same; the OpenAPI builder
// writes it as `type: boolean` (mock/openapi/openapi-document.ts).
const flag = () => z.literal([true, false]);

const feature = /* @__PURE__ */ lazy(() =>
  entity({
    enabled: z.union([z.string(), z.number(), flag()]),
  }),
);
const countedFeature = /* @__PURE__ */ lazy(() =>
  entity({
    enabled: z.union([z.string(), z.number(), flag()]),
    count: z.optional(z.union([z.string(), z.number()])),
  }),
);

/** Plan limits: numeric quotas, on/off features (`enabled` "0"/"1") and counted features (`count` as a string). */
export const PlanLimits = /* @__PURE__ */ lazy(() =>
  entity({
    links: z.optional(Count),
    clicks: z.optional(Count),
    retention: z.optional(Count),
    custom: z.optional(feature),
    multiple: z.optional(feature),
    alias: z.optional(feature),
    device: z.optional(feature),
    geo: z.optional(feature),
    bundle: z.optional(feature),
    parameters: z.optional(feature),
    export: z.optional(feature),
    api: z.optional(feature),
    team: z.optional(countedFeature),
    splash: z.optional(countedFeature),
    overlay: z.optional(countedFeature),
    pixels: z.optional(countedFeature),
    domain: z.optional(countedFeature),
  }),
);
/** Plan limits. */
export type PlanLimits = z.infer<typeof PlanLimits>;

/** A subscription plan. */
export const Plan = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    name: z.string(),
    free: z.union([flag(), z.number(), z.string()]),
    prices: z.nullable(
      entity({
        monthly: z.optional(z.union([z.number(), z.string()])),
        yearly: z.optional(z.union([z.number(), z.string()])),
        lifetime: z.optional(z.union([z.number(), z.string()])),
      }),
    ),
    limits: PlanLimits,
  }),
);
/** A subscription plan. */
export type Plan = z.infer<typeof Plan>;

/** Billing periods a subscription can have. */
export const SUBSCRIPTION_TYPES = ['monthly', 'yearly', 'lifetime'] as const;

/** Body of `PUT /api/plan/:planid/user/:userid` (`expiration: null` reads as not sent). */
export const PlanSubscription = /* @__PURE__ */ lazy(() =>
  z.object({
    type: z.literal(SUBSCRIPTION_TYPES),
    expiration: optionalField(DateTimeInput),
  }),
);
/** Body of `PUT /api/plan/:planid/user/:userid`. */
export type PlanSubscription = z.infer<typeof PlanSubscription>;
