// How deeply a JSON text nests, found by one scan of its characters before it is parsed: a 2 MB answer of nested
// arrays parses into a million objects (hundreds of MB) that no answer of the API needs; the checks refuse it first.

/** Deepest nesting the drift checks read: the API's answers nest 4 levels at most. */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests objects or arrays deeper than `limit` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Why a body is not checked: nested deeper than {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;

/** `JSON.parse`, refusing (with a SyntaxError saying so) a text nested deeper than {@link MAX_JSON_DEPTH}. */
export function parseJsonWithinDepth(text: string): unknown {
  if (nestsDeeperThan(text)) throw new SyntaxError(`The JSON is ${TOO_DEEP}.`);
  return JSON.parse(text);
}
