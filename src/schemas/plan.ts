import * as z from 'zod/mini';
import { entity } from './entity.js';
import { Count, DateTimeInput, Id } from './primitives.js';
import { optionalField } from './rules.js';

// Both booleans as a literal rather than z.boolean(): plans are the SDK's only booleans, and z.boolean() brings its
// own class into the client bundle (~75 B gzip). Inside these unions a mismatch reads the same; the OpenAPI builder
// writes it as `type: boolean` (mock/openapi/openapi-document.ts).
const flag = () => z.literal([true, false]);

const feature = /* @__PURE__ */ entity({
  enabled: /* @__PURE__ */ z.union([/* @__PURE__ */ z.string(), /* @__PURE__ */ z.number(), /* @__PURE__ */ flag()]),
});
const countedFeature = /* @__PURE__ */ entity({
  enabled: /* @__PURE__ */ z.union([/* @__PURE__ */ z.string(), /* @__PURE__ */ z.number(), /* @__PURE__ */ flag()]),
  count: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.union([/* @__PURE__ */ z.string(), /* @__PURE__ */ z.number()])),
});

/** Plan limits: numeric quotas, on/off features (`enabled` "0"/"1") and counted features (`count` as a string). */
export const PlanLimits = /* @__PURE__ */ entity({
  links: /* @__PURE__ */ z.optional(Count),
  clicks: /* @__PURE__ */ z.optional(Count),
  retention: /* @__PURE__ */ z.optional(Count),
  custom: /* @__PURE__ */ z.optional(feature),
  multiple: /* @__PURE__ */ z.optional(feature),
  alias: /* @__PURE__ */ z.optional(feature),
  device: /* @__PURE__ */ z.optional(feature),
  geo: /* @__PURE__ */ z.optional(feature),
  bundle: /* @__PURE__ */ z.optional(feature),
  parameters: /* @__PURE__ */ z.optional(feature),
  export: /* @__PURE__ */ z.optional(feature),
  api: /* @__PURE__ */ z.optional(feature),
  team: /* @__PURE__ */ z.optional(countedFeature),
  splash: /* @__PURE__ */ z.optional(countedFeature),
  overlay: /* @__PURE__ */ z.optional(countedFeature),
  pixels: /* @__PURE__ */ z.optional(countedFeature),
  domain: /* @__PURE__ */ z.optional(countedFeature),
});
/** Plan limits. */
export type PlanLimits = z.infer<typeof PlanLimits>;

/** A subscription plan. */
export const Plan = /* @__PURE__ */ entity({
  id: Id,
  name: /* @__PURE__ */ z.string(),
  free: /* @__PURE__ */ z.union([/* @__PURE__ */ flag(), /* @__PURE__ */ z.number(), /* @__PURE__ */ z.string()]),
  prices: /* @__PURE__ */ z.nullable(
    /* @__PURE__ */ entity({
      monthly: /* @__PURE__ */ z.optional(
        /* @__PURE__ */ z.union([/* @__PURE__ */ z.number(), /* @__PURE__ */ z.string()]),
      ),
      yearly: /* @__PURE__ */ z.optional(
        /* @__PURE__ */ z.union([/* @__PURE__ */ z.number(), /* @__PURE__ */ z.string()]),
      ),
      lifetime: /* @__PURE__ */ z.optional(
        /* @__PURE__ */ z.union([/* @__PURE__ */ z.number(), /* @__PURE__ */ z.string()]),
      ),
    }),
  ),
  limits: PlanLimits,
});
/** A subscription plan. */
export type Plan = z.infer<typeof Plan>;

/** Billing periods a subscription can have. */
export const SUBSCRIPTION_TYPES = ['monthly', 'yearly', 'lifetime'] as const;

/** Body of `PUT /api/plan/:planid/user/:userid` (`expiration: null` reads as not sent). */
export const PlanSubscription = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal(SUBSCRIPTION_TYPES),
  expiration: /* @__PURE__ */ optionalField(DateTimeInput),
});
/** Body of `PUT /api/plan/:planid/user/:userid`. */
export type PlanSubscription = z.infer<typeof PlanSubscription>;
