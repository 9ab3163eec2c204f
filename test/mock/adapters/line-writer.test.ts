// The standalone server's log output: lines written within its interval (10 ms) leave in one write, in order, and
// none is left behind (see also test/e2e/mock-request-log.test.ts, which stops the CLI right after a burst of requests).
import { describe, expect, it } from 'vitest';
import { BatchedLineWriter, clockTime } from '../../../mock/adapters/line-writer.js';

/** Past the writer's 10 ms interval: timers run in the order they are due, so its flush has run by then. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

function recorder() {
  const writes: string[] = [];
  return { writes, writer: new BatchedLineWriter({ write: (text: string) => writes.push(text) }) };
}

describe('BatchedLineWriter', () => {
  it('hands 500 lines written within its interval to the sink in one write, in order', async () => {
    const { writes, writer } = recorder();
    const lines = Array.from({ length: 500 }, (_, i) => `GET /api/account 200 alice (user 2) ${i} ms\n`);
    for (const line of lines) writer.write(line);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([lines.join('')]);
  });

  it('writes the lines of a later interval in a write of their own', async () => {
    const { writes, writer } = recorder();
    writer.write('a\n');
    await nextTurn();
    writer.write('b\n');
    writer.write('c\n');
    await nextTurn();
    expect(writes).toEqual(['a\n', 'b\nc\n']);
  });

  it('writes what is pending at once on flush(), and nothing when nothing is', async () => {
    const { writes, writer } = recorder();
    writer.flush();
    writer.write('last\n');
    writer.flush();
    await nextTurn();
    expect(writes).toEqual(['last\n']);
  });
});

describe('BatchedLineWriter with a reader that falls behind', () => {
  it('drops lines while the sink holds more unread bytes than allowed, then says how many', async () => {
    const writes: string[] = [];
    let unread = 0;
    const sink = { write: (text: string) => writes.push(text), writableLength: 0 };
    Object.defineProperty(sink, 'writableLength', { get: () => unread });
    const writer = new BatchedLineWriter(sink, { maxUnreadBytes: 100 });
    writer.write('kept\n');
    await nextTurn();
    unread = 1_000;
    writer.write('dropped 1\n');
    writer.write('dropped 2\n');
    await nextTurn();
    writer.write('dropped 3\n');
    await nextTurn();
    unread = 0;
    writer.write('after\n');
    await nextTurn();
    expect(writes).toEqual(['kept\n', '(3 log lines dropped: this output was not read as fast as they came)\nafter\n']);
  });
});

describe('clockTime', () => {
  it('reads as the ISO time of day in UTC, to the millisecond', () => {
    for (const ms of [0, 7, 59_999, 86_399_999, Date.UTC(2026, 10, 27, 4, 5, 6, 78), Date.now()]) {
      expect(clockTime(ms)).toBe(new Date(ms).toISOString().slice(11, 23));
    }
  });
});
