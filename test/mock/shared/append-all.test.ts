import { describe, expect, it } from 'vitest';
import { appendAll } from '../../../mock/shared/append-all.js';

describe('appendAll', () => {
  it('appends a list of 500,000 rows, which push(...rows) cannot (it overflows the stack)', () => {
    const rows = Array.from({ length: 500_000 }, (_, i) => ({ id: i }));
    expect(() => [].push(...(rows as never[]))).toThrow(RangeError);
    const target = [{ id: -1 }];
    appendAll(target, rows);
    expect(target).toHaveLength(500_001);
    expect(target[500_000]).toEqual({ id: 499_999 });
  });
});
