// Where a JSON text goes wrong. V8 names the offset for some mistakes ("at position 12") but not for an unexpected
// token, where it quotes a few characters instead; a user fixing a state file by hand needs the line and column.

const ESCAPES = '"\\/bfnrt';

/**
 * The offset of the first character that makes `text` invalid JSON (its length when the text ends too soon), or
 * undefined when the text is valid or nested too deeply to scan.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const fail = (): never => {
    throw new JsonSyntaxAt(i);
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        if (text[i] === 'u') {
          // V8 points at the first character that is not a hex digit.
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
          }
        } else if (!ESCAPES.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    i++;
  };
  const items = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === ',') {
        i++;
        space();
        continue;
      }
      if (text[i] !== close) fail();
      i++;
      return;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      items('}', () => {
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
      });
      return;
    }
    if (c === '[') {
      items(']', value);
      return;
    }
    if (c === '"') {
      string();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (c !== literal[0]) continue;
      // Character by character: V8 points at the first one that differs.
      for (const expected of literal) {
        if (text[i] !== expected) fail();
        i++;
      }
      return;
    }
    number();
  };
  const digits = () => {
    if (!isDigit(text[i])) fail();
    while (isDigit(text[i])) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    // A stack overflow on absurd nesting: the caller says it without a line.
    return undefined;
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}

/**
 * Where and why `JSON.parse` refused `text`: the line and column (from 1) of the first mistake, and V8's reason
 * without the offset or the quoted snippet it adds, since the line and column say where.
 */
export function jsonErrorPlace(text: string, error: unknown): { line: number; column: number; why: string } {
  const before = text.slice(0, jsonErrorOffset(text) ?? text.length).split('\n');
  const why = (error as Error).message.split(/,? in JSON at position|\s\(line \d|, "|, \.\.\./)[0] ?? '';
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, why };
}
