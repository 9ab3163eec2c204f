import type { Clock } from '../../src/core/clock.js';
import { controlGroup } from '../control/control-routes.js';
import { mediaGroup } from '../control/media-routes.js';
import type { MockRouter } from '../http/router.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { messagingGroup } from './messaging-routes.js';

/** What the gateway needs from the backend core. */
export interface GatewayHost<C extends Clock = Clock> {
  clock: C;
  router: MockRouter;
  random(): number;
}

/**
 * Creates the backend's gateway on its clock and randomness and adds its route groups: the messaging API
 * (`/api/v1/...`), stored media (`/__mock/media/...`) and the control API (`/__mock/...`).
 */
export function installGateway<C extends Clock>(host: GatewayHost<C>, options: GatewayOptions = {}): Gateway<C> {
  const gateway = new Gateway(host.clock, () => host.random(), options);
  host.router.add(messagingGroup(gateway));
  host.router.add(mediaGroup(gateway));
  host.router.add(controlGroup(gateway));
  return gateway;
}
