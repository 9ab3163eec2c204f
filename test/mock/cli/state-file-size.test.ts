// The state file's size rule holds on both sides: a server writes no state file that the next start would refuse.
import { describe, expect, it } from 'vitest';
import { MAX_STATE_FILE_BYTES, StateFileError, serialise } from '../../../mock/cli/state-file.js';

/** A backend whose snapshot is `rows` rows of `width` characters each. */
const holding = (rows: number, width: number) => ({
  snapshot: () => ({ version: 1, rows: Array.from({ length: rows }, (_, i) => `${i}`.padEnd(width, 'x')) }),
});

describe('the state written to a state file', () => {
  it('is the snapshot as indented JSON when it is within the limit', () => {
    expect(serialise(holding(2, 3), 1_000)).toBe('{\n "version": 1,\n "rows": [\n  "0xx",\n  "1xx"\n ]\n}\n');
  });

  it('is refused over the limit, with its size, the limit and what to do, so the file keeps its last state', () => {
    const error = (() => {
      try {
        serialise(holding(20, 40), 500);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toMatch(
      /^the state is 0\.0 MB \(\d+ bytes\), over the 0\.0 MB a state file may be, so a restart could not load it; the file keeps the last state written\. Delete rows or reset the mock \(POST \/__mock\/reset\)\.$/,
    );
  });

  it('uses the same limit as the start: 64 MB by default', () => {
    expect(() => serialise(holding(1, MAX_STATE_FILE_BYTES))).toThrow(StateFileError);
    expect(() => serialise(holding(1, 1_000))).not.toThrow();
  });
});
