import * as z from 'zod/mini';
import { Id } from './primitives.js';
import { minChars } from './rules.js';

/** A branded domain. */
export const Domain = z.looseObject({
  id: Id,
  domain: z.string(),
  redirectroot: z.optional(z.nullable(z.string())),
  redirect404: z.optional(z.nullable(z.string())),
});
/** A branded domain. */
export type Domain = z.infer<typeof Domain>;

/** Body of `POST /api/domain/add`: `domain` is a full URL with http or https. */
export const DomainCreate = z.object({
  domain: z.string().check(minChars(1, 'is required')),
  redirectroot: z.optional(z.string()),
  redirect404: z.optional(z.string()),
});
/** Body of `POST /api/domain/add`. */
export type DomainCreate = z.infer<typeof DomainCreate>;

/** Body of `PUT /api/domain/:id/update`: any subset. */
export const DomainUpdate = z.object({
  redirectroot: z.optional(z.string()),
  redirect404: z.optional(z.string()),
});
/** Body of `PUT /api/domain/:id/update`. */
export type DomainUpdate = z.infer<typeof DomainUpdate>;
