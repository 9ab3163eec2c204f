import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { DateString, Id } from './primitives.js';
import { optionalField } from './rules.js';

/** Account status values seen in the service's documentation; others are read as plain strings. */
export const ACCOUNT_STATUSES = ['free', 'pro'] as const;

/** The caller's account (`GET /api/account`). */
export const Account = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    email: z.string(),
    username: z.string(),
    avatar: z.string(),
    status: z.string(),
    expires: z.nullable(DateString),
    registered: DateString,
  }),
);
/** The caller's account. */
export type Account = z.infer<typeof Account>;

/** Body of `PUT /api/account/update`; production accepts any subset (`null` reads as not sent). */
export const AccountUpdate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** A new email address: at most 50 characters, in the form `name@example.com`. */
    email: optionalField(z.string()),
    /** A new password: at least 5 characters. */
    password: optionalField(z.string()),
  }),
);
/** Body of `PUT /api/account/update`. */
export type AccountUpdate = z.infer<typeof AccountUpdate>;
