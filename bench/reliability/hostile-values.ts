// Values an attacker puts into any field: wrong types, huge strings, strings shaped to make backtracking regexes
// quadratic, odd Unicode, injection classics and prototype-pollution objects. Written as fast-check arbitraries so a
// seed replays a run exactly.
import fc from 'fast-check';
import type { SuiteSize } from './report.js';

/** JSON text spliced verbatim into a body: the only way to send an own `__proto__` key (a literal would set the prototype). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The property an attack tries to plant on `Object.prototype`; seeing it there afterwards is pollution. */
export const POLLUTION_MARKER = 'linkgateReliabilityPolluted';

/** Objects whose keys try to reach `Object.prototype` through a naive merge or assignment. */
export const POLLUTION_OBJECTS: RawJson[] = [
  new RawJson(`{"__proto__":{"${POLLUTION_MARKER}":"yes"}}`),
  new RawJson(`{"constructor":{"prototype":{"${POLLUTION_MARKER}":"yes"}}}`),
  new RawJson(`{"__proto__":{"__proto__":{"${POLLUTION_MARKER}":"yes"}}}`),
  new RawJson(`{"prototype":{"${POLLUTION_MARKER}":"yes"},"hasOwnProperty":1,"toString":"x"}`),
];

/** Keys a body gets besides its own, each with a pollution object or a plain value. */
export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** Repeated units that backtracking regexes match many ways (the QR logo rule's `.png?` among them). */
export const REGEX_UNITS = [
  '.png?',
  '.jpg?',
  '.jpeg?',
  'a',
  '1',
  '0,',
  ' ',
  '.',
  '-',
  'a.',
  'a@',
  '//',
  '%20',
  'rgb(',
  '\t',
  '+1',
];
/** Characters that end a match late, after the engine has tried every split of the units. */
export const REGEX_BREAKERS = ['\n', '!', '\u0000', '"', '\u2028', ')'];

/** Lengths of the crafted strings for each suite size: long enough that a quadratic regex takes well over 100 ms. */
export function hostileLengths(size: SuiteSize): { huge: number; crafted: number } {
  return size === 'ci' ? { huge: 64 * 1024, crafted: 16 * 1024 } : { huge: 256 * 1024, crafted: 32 * 1024 };
}

// One instance per distinct long string: a pool of thousands of 256 KB copies would make the fuzz process's own
// garbage collection, not the mock, the slowest part of a request.
const longStrings = new Map<string, string>();
function shared(key: string, make: () => string): string {
  let value = longStrings.get(key);
  if (value === undefined) {
    value = make();
    longStrings.set(key, value);
  }
  return value;
}

/** A string of `unit` repeated to about `length` characters, ending in `breaker` (and sometimes opening with it). */
export function craftedString(unit: string, breaker: string, length: number, lead: boolean): string {
  return shared(`${unit}|${breaker}|${length}|${lead}`, () => {
    const body = unit.repeat(Math.max(1, Math.floor(length / unit.length)));
    return `${lead ? breaker : ''}${body}${breaker}`;
  });
}

/** True when a value is one of the crafted regex-hostile or huge strings (its request is held to the time bound). */
export function isCrafted(value: unknown, size: SuiteSize): boolean {
  return typeof value === 'string' && value.length >= hostileLengths(size).crafted / 2;
}

/** The `n`-th crafted string of a deterministic walk through every unit and breaker. */
export function nthCraftedString(n: number, size: SuiteSize): string {
  const unit = REGEX_UNITS[n % REGEX_UNITS.length]!;
  const breaker = REGEX_BREAKERS[Math.floor(n / REGEX_UNITS.length) % REGEX_BREAKERS.length]!;
  return craftedString(unit, breaker, hostileLengths(size).crafted, n % 5 === 4);
}

/** Any hostile value for any field. */
export function hostileValue(size: SuiteSize): fc.Arbitrary<unknown> {
  const { huge, crafted } = hostileLengths(size);
  return fc.oneof(
    // Wrong types.
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], ['a', 1]),
    fc.constantFrom<unknown>({ $gt: '' }, { length: 1e9 }, [[[[[[[[[[[]]]]]]]]]]]),
    // Strings the rules must refuse or store exactly.
    fc.constantFrom('', ' ', '\t\n', '0', '-0', '1e309', '0x10', ' 1', '1 ', '9007199254740993', 'NaN', 'null', 'true'),
    fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\u200b', 'e\u0301', 'İ', '🙂'.repeat(50), 'ǅ'),
    fc.constantFrom("' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '%00', '$' + '{7*7}', '{{7*7}}'),
    fc.constantFrom(
      'https://go.alice.example.',
      'HTTPS://GO.ALICE.EXAMPLE',
      'https://go.alice.example:8443',
      'javascript:alert(1)',
    ),
    // Huge and crafted strings.
    fc.constantFrom('a', 'é', '🙂', '0', ' ').map((c) => shared(`${c}|${huge}`, () => c.repeat(huge / c.length))),
    fc
      .tuple(fc.constantFrom(...REGEX_UNITS), fc.constantFrom(...REGEX_BREAKERS), fc.boolean())
      .map(([unit, breaker, lead]) => craftedString(unit, breaker, crafted, lead)),
    // Prototype pollution, and any JSON at all.
    fc.constantFrom<unknown>(...POLLUTION_OBJECTS),
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
}

/** Whole request bodies that are not the JSON object an endpoint expects. */
export function hostileBody(size: SuiteSize): fc.Arbitrary<RawJson> {
  const { huge } = hostileLengths(size);
  return fc
    .oneof(
      fc.constantFrom('', 'null', '[]', '"text"', '42', 'true', '{', '{"a":', 'not json', '{"a":1,}', "{'a':1}"),
      fc.constantFrom(
        '\ufeff{}',
        '{}\u0000',
        `[${'['.repeat(5000)}${']'.repeat(5000)}]`,
        `{"a":"${'x'.repeat(huge)}"}`,
      ),
      fc.constantFrom(`{${Array.from({ length: 5000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
      fc.constantFrom(...POLLUTION_OBJECTS.map((o) => o.text)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    )
    .map((text) => new RawJson(text));
}

/** JSON text of `value`, writing {@link RawJson} parts verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
