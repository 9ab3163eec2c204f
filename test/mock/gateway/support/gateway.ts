// Builds a gateway on a ManualClock for tests, with a seeded random so ids and secrets are reproducible.

import { ManualClock } from '../../../../mock/clock.js';
import { Gateway, type GatewayOptions } from '../../../../mock/gateway/Gateway.js';

/** A small deterministic PRNG (mulberry32). */
export function seeded(seed = 42): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A gateway on a fresh ManualClock. */
export function manualGateway(options: GatewayOptions = {}): { gateway: Gateway<ManualClock>; clock: ManualClock } {
  const clock = new ManualClock();
  const gateway = new Gateway(clock, seeded(), options);
  return { gateway, clock };
}
