import type { Gateway } from '../gateway/gateway.js';
import type { MockRouter } from '../http/router.js';
import type { ManagementHost } from '../management/route-context.js';

/**
 * What the control API's state endpoints (`/__mock/reset`, `/__mock/fixture`) use of the backend: the management
 * routes' view plus the gateway, the routes and the reset. A leaf, so the backend imports these routes without a circle.
 */
export interface StateHost extends ManagementHost {
  /** The messaging gateway, for devices and the control token. */
  readonly gateway: Gateway;
  /** The routes, so a fixture creates records through the management API's own handlers. */
  readonly router: MockRouter;
  /** Back to the seeded state. */
  reset(): void;
  /** The whole state as a snapshot (`GET /__mock/snapshot`). */
  snapshot(): unknown;
  /** Replaces the whole state, all or nothing (`PUT /__mock/snapshot`). */
  restore(snapshot: unknown): void;
}
