// Where a JSON text goes wrong. V8 names the offset for some mistakes ("at position 12") but not for an unexpected
// token, where it quotes a few characters instead; a user fixing a state file by hand needs the line and column.

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
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
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
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
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) fail();
    i = NUMBER.lastIndex;
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

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}
