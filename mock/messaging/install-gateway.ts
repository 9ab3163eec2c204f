import { controlGroup } from '../control/control-routes.js';
import { mediaGroup } from '../control/media-routes.js';
import type { MockRouter } from '../http/router.js';
import type { Gateway } from './gateway.js';
import { messagingGroup } from './messaging-routes.js';

/**
 * Adds the gateway's route groups to the backend's router: the messaging API (`/api/v1/...`), stored media
 * (`/__mock/media/...`) and the control API (`/__mock/...`).
 */
export function installGateway(router: MockRouter, gateway: Gateway): void {
  router.add(messagingGroup(gateway));
  router.add(mediaGroup(gateway));
  router.add(controlGroup(gateway));
}
