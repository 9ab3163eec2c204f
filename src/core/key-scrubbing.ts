// Takes the API key out of everything an error carries (message, stack, cause chain, AggregateError's errors, headers,
// bodies, whatever a hook threw), so nothing `console.log(error)` or `util.inspect(error, { showHidden: true })`
// reaches shows it. Bounded: cycles are seen once, and a value too deep or too wide to check is refused, not walked.

/** The deepest and widest a value may be: far past any real error or answer, short of what could stall a call. */
const MAX_DEPTH = 1000;
const MAX_PROPERTIES = 1_000_000;

/** Ends a walk that cannot take the key out. */
function stuck(): never {
  throw new RangeError('key stuck');
}

/**
 * `value` with every occurrence of `key` replaced by `***` in each string reachable from it: own properties (hidden
 * and symbol-keyed ones, getters' values), Headers, a Request's or Response's headers; bytes that spell the key are
 * starred over (`*` each). Objects are changed in place,
 * so the same object comes back; strings, symbols and read-only Headers come back replaced. Throws when the key sits
 * where it cannot be changed (a frozen object, a property name, a Map entry, a URL), or the value cannot be read (a
 * Proxy that throws) or is past the bounds: the caller then shows none of it.
 */
export function withoutKey<V>(value: V, key: string): V {
  const text = (s: string) => s.split(key).join('***');
  const seen = new Set<object>();
  let budget = MAX_PROPERTIES;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'symbol') return v.description?.includes(key) ? Symbol(text(v.description)) : v;
    // The rest (numbers, null, ...) cannot hold a key.
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) return v;
    // Bytes (a Buffer, a typed array, an ArrayBuffer) are starred over in place where they spell the key.
    if (ArrayBuffer.isView(v)) {
      starBytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), key);
      return v;
    }
    if (v instanceof ArrayBuffer) {
      starBytes(new Uint8Array(v), key);
      return v;
    }
    if (depth > MAX_DEPTH) stuck();
    seen.add(v);
    if (v instanceof Headers) {
      if (![...v].some(([, field]) => field.includes(key))) return v;
      const fields = [...v].map(([name, field]) => [name, text(field)] as [string, string]);
      try {
        for (const [name, field] of fields) v.set(name, field);
        return v;
      } catch {
        // A fetch answer's headers are read-only: a copy replaces them.
        return new Headers(fields);
      }
    }
    if (v instanceof Request || v instanceof Response) {
      if (walk(v.headers, depth + 1) !== v.headers) stuck();
    }
    // Entries and names cannot be changed in place without reordering what users see: any holding the key is refused.
    for (const entry of v instanceof Map || v instanceof Set ? [...v.entries()].flat() : []) {
      if (walk(entry, depth + 1) !== entry) stuck();
    }
    for (const name of Reflect.ownKeys(v)) {
      if (--budget < 0 || walk(name, depth) !== name) stuck();
      const d = Reflect.getOwnPropertyDescriptor(v, name) as PropertyDescriptor;
      const was = d.get ? d.get.call(v) : d.value;
      const now = walk(was, depth + 1);
      if (
        now !== was &&
        !Reflect.defineProperty(v, name, { value: now, writable: true, enumerable: d.enumerable, configurable: true })
      ) {
        stuck();
      }
    }
    // Built-ins' inner state (a URL's href, a Request's URL, a boxed string) is not in their properties; inspect
    // shows what String() gives. Arrays' items were checked one by one, functions are shown by name only.
    if (typeof v === 'object' && !Array.isArray(v) && shown(v).includes(key)) stuck();
    return v;
  };
  return walk(value, 0) as V;
}

/** What String() gives, or '' for an object without a way to be shown (a null prototype). */
function shown(v: object): string {
  try {
    return String(v);
  } catch {
    return '';
  }
}

/** Overwrites every run of `bytes` that spells `key` (its UTF-8 bytes) with `*` bytes, the length kept. */
function starBytes(bytes: Uint8Array, key: string): void {
  const spelt = new TextEncoder().encode(key);
  // A plain scan: the key is short, and what is scanned is what was thrown (bounded by the caller's memory).
  outer: for (let i = 0; i <= bytes.length - spelt.length; i++) {
    for (let j = 0; j < spelt.length; j++) if (bytes[i + j] !== spelt[j]) continue outer;
    bytes.fill(0x2a, i, i + spelt.length);
    i += spelt.length - 1;
  }
}
