import { ulid } from 'ulid';
import type { Clock } from '../../src/shared/clock.js';

/**
 * Makes delivery ids: ULIDs from the injected clock's time and the seedable randomness, so a seeded test run
 * produces the same ids. One id per event, kept across its retries and replays.
 */
export function createDeliveryIdFactory(clock: Clock, random: () => number): () => string {
  // ulid's PRNG must return [0, 1); guard against a custom random returning exactly 1.
  const prng = () => Math.min(random(), 0.999_999_999);
  return () => ulid(clock.now(), prng);
}
