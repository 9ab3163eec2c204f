import type { RouteGroup } from '../http/router.js';
import type { StateOperationId } from './control-operations.js';
import { type ControlHandlers, controlGroup, controlRoutes } from './control-routes.js';
import { loadFixture } from './fixture.js';
import type { StateHost } from './state-host.js';

/**
 * The control API's endpoints for stored state, so a suite in any language can set up without the rate-limited API:
 * `POST /__mock/reset` (back to the start seed) and `POST /__mock/fixture` (load users, domains, pixels, QR codes and
 * devices at once, all or nothing) and `GET`/`PUT /__mock/snapshot` (the whole state, out and back in, all or
 * nothing). Same token as the rest of `/__mock/`.
 */
export function stateControlGroup(core: StateHost): RouteGroup<unknown> {
  return {
    name: 'control-state',
    // The same guard as the gateway's control endpoints: one token for all of /__mock/.
    guard: controlGroup(core.gateway).guard,
    routes: controlRoutes(stateHandlers(core)),
  };
}

function stateHandlers(core: StateHost): ControlHandlers<StateOperationId> {
  return {
    resetMock: () => {
      core.reset();
      return { reset: true, users: users(core) };
    },
    loadFixture: (body, { req }) => loadFixture(core, body, req.origin),
    getSnapshot: () => core.snapshot(),
    putSnapshot: (body) => {
      core.restore(body);
      return { restored: true, users: users(core) };
    },
  };
}

/** Every user with the key to use, so a suite can pick up keys after a reset. */
function users(core: StateHost) {
  return [...core.store.users.values()].map((u) => ({
    id: u.id,
    username: u.username,
    apikey: u.apikey,
    admin: u.admin,
  }));
}
