// The mock's receipt statuses are written out (mock/simulators/receipt-simulator.ts) for the declaration bundler; the
// webhook events' ACK_STATUS_CODES is the spec's list: the two must stay the same.
import { describe, expectTypeOf, it } from 'vitest';
import type { ReceiptStatus } from '../../../mock/simulators/receipt-simulator.js';
import type { ACK_STATUS_CODES } from '../../../src/schemas/events.js';

describe('ReceiptStatus', () => {
  it('names exactly the statuses of ACK_STATUS_CODES', () => {
    expectTypeOf<ReceiptStatus>().toEqualTypeOf<keyof typeof ACK_STATUS_CODES>();
  });
});
