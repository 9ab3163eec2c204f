import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../../mock/cli/json-error-offset.js';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": [1, 2, oops]}', 13],
    ['[1,]', 3],
    ['{"a": 1', 7],
    ['', 0],
    ['"\\x"', 2],
    ['{"a":1} x', 8],
    ['-01', 2],
    ['{"a":"b\nc"}', 7],
    ['{"a" 1}', 5],
    ['{"a":"\\u12G4"}', 10],
  ])('finds the first wrong character of %j at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('agrees with V8 wherever V8 names a position', () => {
    const valid = JSON.stringify({ users: [{ id: 1, name: 'a\u00e9"b', tags: [true, false, null, -1.5e3] }] }, null, 1);
    for (let cut = 0; cut < valid.length; cut++) {
      for (const text of [valid.slice(0, cut), `${valid.slice(0, cut)}#${valid.slice(cut)}`]) {
        let position: number | undefined;
        try {
          JSON.parse(text);
          continue;
        } catch (error) {
          const named = /position (\d+)/.exec((error as Error).message);
          if (named) position = Number(named[1]);
        }
        if (position !== undefined) expect(jsonErrorOffset(text), text).toBe(position);
        else expect(jsonErrorOffset(text), text).toBeTypeOf('number');
      }
    }
  });

  it('says nothing of valid JSON', () => {
    expect(jsonErrorOffset(' {"a": [1, "x", {"b": null}]}\n')).toBeUndefined();
  });
});
