// Builds a gateway on a ManualClock for tests, with a seeded random so ids and secrets are reproducible.

import { Gateway, type GatewayOptions } from '../../../mock/gateway/gateway.js';
import { ManualClock } from '../../../mock/shared/manual-clock.js';
import { seeded } from './seeded.js';

/** A gateway on a fresh ManualClock. */
export function manualGateway(options: GatewayOptions = {}): { gateway: Gateway<ManualClock>; clock: ManualClock } {
  const clock = new ManualClock();
  const gateway = new Gateway(clock, seeded(), options);
  return { gateway, clock };
}
