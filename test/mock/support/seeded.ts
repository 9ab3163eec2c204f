// The tests' seeded generator is the mock's own (mulberry32): one copy of it.
import { seededRandom } from '../../../mock/faults/seeded-random.js';

/** A small deterministic PRNG (mulberry32): the same seed gives the same keys, ids and secrets in every run. */
export function seeded(seed = 42): () => number {
  return seededRandom(seed);
}
