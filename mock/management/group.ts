import { MANAGEMENT_OPERATIONS, type ManagementOperationId } from '../../src/schemas/operations.js';
import { type Handlers, operationRoute } from '../http/operation-route.js';
import { failure, json } from '../http/responses.js';
import type { RouteGroup } from '../http/router.js';
import { accountHandlers } from './account.js';
import { bearerKey, INVALID_KEY_MESSAGE, NO_PERMISSION_MESSAGE, userByKey } from './auth.js';
import { domainHandlers } from './domains.js';
import { overlayHandlers } from './overlays.js';
import { pixelHandlers } from './pixels.js';
import { planHandlers } from './plans.js';
import { qrHandlers } from './qr.js';
import { rateLimitHeaders, tooManyRequestsBody } from './rate-limit.js';
import type { ManagementContext, ManagementHost, ManagementRoute } from './route-context.js';
import { splashHandlers } from './splash.js';
import { userHandlers } from './users.js';

/** The mock's handler of every management operation: a missing or unknown operation id fails to compile. */
const HANDLERS: Handlers<ManagementOperationId, ManagementContext> = {
  ...accountHandlers,
  ...domainHandlers,
  ...splashHandlers,
  ...overlayHandlers,
  ...pixelHandlers,
  ...qrHandlers,
  ...planHandlers,
  ...userHandlers,
};

/** Whether a path is a management path: `/api/...` except the messaging API's `/api/v1/...`. */
export function isManagementPath(path: string): boolean {
  return path.startsWith('/api/') && !path.startsWith('/api/v1/') && path !== '/api/v1';
}

/**
 * The management API: Bearer API-key auth (HTTP 403 otherwise), then the per-key fixed-window rate limit whose
 * headers go on every answer to an authenticated caller, then admin checks for plans and users.
 */
export function managementGroup(core: ManagementHost): RouteGroup<ManagementContext> {
  return {
    name: 'management',
    owns: isManagementPath,
    // Method, path and admin flag from each operation's one declaration; the handler is the mock's behaviour.
    routes: MANAGEMENT_OPERATIONS.map((op) =>
      adminGuarded({ ...operationRoute(op, HANDLERS[op.id]), ...(op.admin && { admin: true }) }),
    ),
    guard(req) {
      const key = bearerKey(req.headers.authorization);
      const user = key === undefined ? undefined : userByKey(core.store, key);
      if (!user) return { ok: false, response: failure(INVALID_KEY_MESSAGE, { status: 403 }) };
      const limiter = core.rateLimiter;
      if (!limiter) return { ok: true, context: { core, user } };
      const decision = limiter.take(user.apikey);
      const headers = rateLimitHeaders(decision);
      if (!decision.allowed) {
        // Older production versions did not clamp Remaining at 0 on the over-limit answer.
        if (core.options.variants.negativeRemaining) headers['X-RateLimit-Remaining'] = '-1';
        // Production answers the over-limit case on HTTP 200 with error 429 in the body.
        return { ok: false, response: json(200, tooManyRequestsBody(decision)), headers };
      }
      return { ok: true, context: { core, user }, headers };
    },
  };
}

function adminGuarded(route: ManagementRoute): ManagementRoute {
  if (!route.admin) return route;
  return {
    ...route,
    handle: (call) => (call.context.user.admin ? route.handle(call) : failure(NO_PERMISSION_MESSAGE, { status: 403 })),
  };
}
