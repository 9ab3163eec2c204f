import * as z from 'zod/mini';
import { Account } from './account.js';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { Count, DateTimeInput, Id, IntegerInput } from './primitives.js';
import { optionalField } from './rules.js';

/** A user record as the admin endpoints return it: the account plus `planid` and the user's API key (a secret). */
export const User = /* @__PURE__ */ lazy(() =>
  entity({ ...Account.shape, planid: z.optional(z.nullable(Count)), apikey: z.optional(z.string()) }),
);
/** A user record from the admin endpoints. */
export type User = z.infer<typeof User>;

/** Values of the `filter` query of `GET /api/users`. */
export const USER_FILTERS = ['admin', 'free', 'pro'] as const;
/** Query of `GET /api/users`. */
export const UserListQuery = /* @__PURE__ */ lazy(() =>
  z.object({
    /** Only the users of one kind: `admin`, `free` or `pro` (`USER_FILTERS`). */
    filter: z.optional(z.literal(USER_FILTERS)),
  }),
);
/** Query of `GET /api/users`. */
export type UserListQuery = z.infer<typeof UserListQuery>;

/**
 * Body of `POST /api/user/add`. `null` for `planid` or `expiration` reads as not sent; `planid` may be a string of
 * digits (`"2"`), as a PHP application reading JSON takes it.
 */
export const UserCreate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** 4 to 20 letters, digits or underscores (`USERNAME_PATTERN`). */
    username: z.string(),
    /** At most 50 characters, in the form `name@example.com`. */
    email: z.string(),
    /** At least 5 characters (`MIN_PASSWORD_LENGTH`). */
    password: z.string(),
    /** The plan's id: an integer, or a string of up to 15 digits. */
    planid: optionalField(IntegerInput),
    /** When the plan ends: `YYYY-MM-DD HH:MM:SS`. */
    expiration: optionalField(DateTimeInput),
  }),
);
/** Body of `POST /api/user/add`. */
export type UserCreate = z.infer<typeof UserCreate>;

/** `POST /api/user/add`: `{ error, message, data: { id, email, username } }`. */
export const UserCreatedEnvelope = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    error: Count,
    message: z.optional(z.string()),
    data: z.looseObject({
      id: Id,
      email: z.string(),
      username: z.string(),
    }),
  }),
);
