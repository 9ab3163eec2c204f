import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { MAX_URL_CHARS } from './limits.js';
import { Id } from './primitives.js';
import { maxChars, minChars, optionalField } from './rules.js';

/** A URL field of a domain body; the route checks it is http(s) with production's own message. */
const urlText = () => z.string().check(maxChars(MAX_URL_CHARS));

/** A branded domain. */
export const Domain = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    domain: z.string(),
    redirectroot: z.optional(z.nullable(z.string())),
    redirect404: z.optional(z.nullable(z.string())),
  }),
);
/** A branded domain. */
export type Domain = z.infer<typeof Domain>;

/** Body of `POST /api/domain/add`: `domain` is a full URL with http or https; `null` redirects read as not sent. */
export const DomainCreate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** The branded domain: required, a full URL with http or https (`https://go.example.com`), at most 2,048 characters. */
    domain: urlText().check(minChars(1, 'is required')),
    /** Where the domain's root redirects: a full URL with http or https, at most 2,048 characters. */
    redirectroot: optionalField(urlText()),
    /** Where unknown paths on the domain redirect: a full URL with http or https, at most 2,048 characters. */
    redirect404: optionalField(urlText()),
  }),
);
/** Body of `POST /api/domain/add`. */
export type DomainCreate = z.infer<typeof DomainCreate>;

/** Body of `PUT /api/domain/:id/update`: any subset (`null` reads as not sent). */
export const DomainUpdate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** Where the domain's root redirects: a full URL with http or https, at most 2,048 characters. */
    redirectroot: optionalField(urlText()),
    /** Where unknown paths on the domain redirect: a full URL with http or https, at most 2,048 characters. */
    redirect404: optionalField(urlText()),
  }),
);
/** Body of `PUT /api/domain/:id/update`. */
export type DomainUpdate = z.infer<typeof DomainUpdate>;
