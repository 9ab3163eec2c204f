// How a state file is replaced, at the file-system seam: a disk that takes only part of the text (a short write, as
// a full disk gives) fails the write and leaves the previous file; a new file is its owner's only; a mode the user set
// is kept. The same with real processes and a real full disk: test/e2e/mock-state-disk.test.ts.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type WriteOnce, writeStateFileSync } from '../../../mock/state/state-file-write.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-write-'));
  return join(dir, 'state.json');
};

/** A disk with room for `room` more bytes: writes what fits, then 0 (what write(2) gives before ENOSPC). */
const diskWithRoom = (room: number): WriteOnce => {
  let left = room;
  return (fd, data, offset, length) => {
    const n = Math.min(length, left);
    left -= n;
    return n === 0 ? 0 : writeSync(fd, data, offset, n);
  };
};

describe('writing a state file', () => {
  it('fails on a short write, leaving the previous file whole and no temp file', () => {
    const file = fresh();
    writeFileSync(file, 'the previous state');
    expect(() => writeStateFileSync(file, 'x'.repeat(10_000), diskWithRoom(4_096))).toThrow(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe('the previous state');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('writes every byte when the disk takes them in pieces', () => {
    const file = fresh();
    let calls = 0;
    const inPieces: WriteOnce = (fd, data, offset, length) => {
      calls++;
      return writeSync(fd, data, offset, Math.min(length, 1_000));
    };
    writeStateFileSync(file, 'y'.repeat(10_000), inPieces);
    expect(readFileSync(file, 'utf8')).toBe('y'.repeat(10_000));
    expect(calls).toBe(10);
  });

  it('creates a new file readable by its owner only, and keeps the mode of an existing one', () => {
    const file = fresh();
    writeStateFileSync(file, 'first');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o640);
    writeStateFileSync(file, 'second');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readFileSync(file, 'utf8')).toBe('second');
  });
});
