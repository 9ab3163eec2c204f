import type { Clock } from '../../src/shared/clock.js';
import type { Route } from '../http/router.js';
import type { MockRequest } from '../http/types.js';
import type { RateLimiter } from './rate-limit.js';
import type { MockStore, UserRow } from './store.js';
import type { ProductionVariants } from './variants.js';

/**
 * What the management API's routes use of the backend, and nothing more: a leaf the routes import instead of
 * `mock/backend.ts`, so the backend can import its routes without an import circle. The backend core is one.
 */
export interface ManagementHost {
  /** The in-memory tables. */
  readonly store: MockStore;
  /** The clock record dates and subscription expiry read. */
  readonly clock: Clock;
  /** The per-key limiter, undefined when `rateLimit: false`. */
  readonly rateLimiter: RateLimiter | undefined;
  /** The production variants in force. */
  readonly options: { readonly variants: ProductionVariants };
  /** The base for absolute links the mock serves itself (QR images). */
  linkBase(req: MockRequest): string;
}

/** What a management route knows once the guard has let the request in. */
export interface ManagementContext {
  /** What the route may use of the backend: store, clock, rate limiter, variants, link base. */
  core: ManagementHost;
  /** The caller, found by API key. */
  user: UserRow;
}

/** A management endpoint; `admin` ones refuse normal users with production's 403. */
export interface ManagementRoute extends Route<ManagementContext> {
  /** Only admins may call it. @default false */
  admin?: boolean;
}
