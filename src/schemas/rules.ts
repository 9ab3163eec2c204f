// The checks the schemas use, written as plain predicates on one `z.check`. zod's built-in checks (`z.url()`,
// `z.regex`, `z.minLength`, ...) each bring their own classes into the browser bundle; these bring a few bytes each.
// Every issue is `custom` with the rule as its message; `describe` keeps the OpenAPI document as precise as before.
import * as z from 'zod/mini';
import { MAX_URL_CHARS } from './limits.js';

type Bag = z.core.$ZodTypeInternals['bag'];

/**
 * A check with its own message over a plain predicate.
 * @param describe - records the rule in the schema's JSON-Schema bag (`minimum`, `patterns`, `format`...).
 */
export function rule<T>(test: (value: T) => boolean, message: string, describe?: (bag: Bag) => void) {
  const check = z.check<T>((ctx) => {
    if (!test(ctx.value)) ctx.issues.push({ code: 'custom', message, input: ctx.value, continue: true });
  });
  if (describe) check._zod.onattach.push((schema) => describe(schema._zod.bag));
  return check;
}

/** The string matches `pattern` (no `g` or `y` flag). */
export const matching = (pattern: RegExp, message: string) =>
  rule<string>(
    (text) => pattern.test(text),
    message,
    (bag) => {
      bag.patterns ??= new Set<RegExp>();
      (bag.patterns as Set<RegExp>).add(pattern);
    },
  );

/** The string has at least `min` characters. */
export const minChars = (min: number, message: string) =>
  rule<string>(
    (text) => text.length >= min,
    message,
    (bag) => {
      bag.minimum = min;
    },
  );

/** The string has at most `max` characters; its message says so (`must be at most 2048 characters`). */
export const maxChars = (max: number) =>
  rule<string>(
    (text) => text.length <= max,
    `must be at most ${max} characters`,
    (bag) => {
      bag.maximum = max;
    },
  );

/** The number is greater than 0. */
export const positive = (message: string) =>
  rule<number>(
    (n) => n > 0,
    message,
    (bag) => {
      bag.exclusiveMinimum = 0;
    },
  );

/** An http(s) URL with a host: the one such rule of the SDK and the mock, shared by both checks below. */
const isWebUrl = (url: URL) => (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';

/** Whether `text` is an absolute URL; with `httpOnly`, an http(s) URL with a host. Surrounding spaces are ignored. */
export function isUrl(text: string, httpOnly = false): boolean {
  try {
    const url = new URL(text.trim());
    return !httpOnly || isWebUrl(url);
  } catch {
    return false;
  }
}

/** Whether `text` is an absolute http(s) URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    return isWebUrl(new URL(text));
  } catch {
    return false;
  }
}

/** A URL field: at most {@link MAX_URL_CHARS} characters, checked with {@link isUrl}, sent trimmed (as `z.url()` did). */
export const urlString = (message: string, httpOnly = false) =>
  z.pipe(
    z.string().check(
      maxChars(MAX_URL_CHARS),
      rule<string>(
        // An overlong value is reported once, by the length rule.
        (text) => text.length > MAX_URL_CHARS || isUrl(text, httpOnly),
        message,
        (bag) => {
          bag.format = 'url';
        },
      ),
    ),
    z.transform((text: string) => text.trim()),
  );

/**
 * An optional request field for which `null` means "not sent": production is a PHP application that reads an absent
 * and a null field alike, and many clients write "not given" as null (Python `None`, PHP `null`, Go nil pointers).
 * `null` is read as `undefined`, so handlers and the SDK see one kind of absence and the SDK never sends it.
 */
export const optionalField = <T extends z.core.$ZodType>(schema: T) =>
  z.optional(
    z.pipe(
      z.nullable(schema),
      z.transform((value: z.output<T> | null) => value ?? undefined),
    ),
  );

/**
 * A safe integer, like `z.int()` (same OpenAPI form) but without its number-format classes. A non-number reads
 * "must be a number", a fraction "must be an integer".
 */
export const integer = () =>
  z.number().check(
    rule<number>(Number.isSafeInteger, 'must be an integer', (bag) => {
      bag.format = 'safeint';
      // Number.MIN_SAFE_INTEGER and MAX_SAFE_INTEGER, written as numbers: their names cost the browser bundle bytes.
      bag.minimum = -(2 ** 53 - 1);
      bag.maximum = 2 ** 53 - 1;
    }),
  );
