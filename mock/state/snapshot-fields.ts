// Readers of a snapshot's plain JSON: each checks one field's type and names it (`store.users[3].email`) with its rule
// when it is wrong, as the control API's other endpoints do. Every field of a row is required: a snapshot is written
// whole by `snapshot()`, so a missing field means a hand-edited or foreign document, not an omitted default.
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** A JSON object of a snapshot, read field by field. */
export type Json = Record<string, unknown>;

/** Keys that would reach an object's prototype if a reader ever copied them with `obj[key] = ...`. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Throws a {@link GatewayInputError} at the first key anywhere in `value` that could change an object's prototype
 * (`__proto__`, `constructor`, `prototype`): no row of the mock has such a field, so one is always an attack or a
 * mistake. Iterative, so a deeply nested document cannot overflow the stack.
 */
export function refusePrototypeKeys(value: unknown, at: string): void {
  const stack: [unknown, string][] = [[value, at]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}[${i}]`]);
      continue;
    }
    for (const key of Object.keys(item)) {
      if (PROTOTYPE_KEYS.has(key)) {
        throw new GatewayInputError(`${path}.${key}`, 'is not allowed: no snapshot field has this name');
      }
      stack.push([(item as Json)[key], `${path}.${key}`]);
    }
  }
}

/** `value` as an object with exactly `keys` (each required, no others); else an error naming `at` or the key. */
export function objectWith(value: unknown, at: string, keys: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayInputError(at, 'must be a JSON object');
  }
  for (const key of Object.keys(value)) {
    if (!keys.includes(key))
      throw new GatewayInputError(`${at}.${key}`, `is not a field here; the fields are ${keys.join(', ')}`);
  }
  for (const key of keys) if (!(key in value)) throw new GatewayInputError(`${at}.${key}`, 'is required');
  return value as Json;
}

/** `value` as an array, each item checked by `read` with its index in the path. */
export function arrayOf<T>(value: unknown, at: string, read: (item: unknown, at: string) => T): T[] {
  if (!Array.isArray(value)) throw new GatewayInputError(at, 'must be an array');
  return value.map((item, i) => read(item, `${at}[${i}]`));
}

/** A string field; `rule` returns what is wrong with it, or undefined. */
export function text(row: Json, key: string, at: string, rule?: (value: string) => string | undefined): string {
  const value = row[key];
  if (typeof value !== 'string') throw new GatewayInputError(`${at}.${key}`, 'must be a string');
  const wrong = rule?.(value);
  if (wrong !== undefined) throw new GatewayInputError(`${at}.${key}`, wrong);
  return value;
}

/** A whole-number field of at least `min`. */
export function whole(row: Json, key: string, at: string, min = 0): number {
  const value = row[key];
  if (!Number.isSafeInteger(value) || (value as number) < min) {
    throw new GatewayInputError(`${at}.${key}`, `must be a whole number >= ${min}`);
  }
  return value as number;
}

/** A finite-number field. */
export function finite(row: Json, key: string, at: string): number {
  const value = row[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new GatewayInputError(`${at}.${key}`, 'must be a number');
  }
  return value;
}

/** A boolean field. */
export function flag(row: Json, key: string, at: string): boolean {
  const value = row[key];
  if (typeof value !== 'boolean') throw new GatewayInputError(`${at}.${key}`, 'must be true or false');
  return value;
}

/** A field that is null or read by `read`. */
export function nullOr<T>(
  row: Json,
  key: string,
  at: string,
  read: (row: Json, key: string, at: string) => T,
): T | null {
  return row[key] === null ? null : read(row, key, at);
}

/** A field that is one of `values`. */
export function oneOf<const T extends string>(row: Json, key: string, at: string, values: readonly T[]): T {
  const value = row[key];
  if (!values.includes(value as T)) throw new GatewayInputError(`${at}.${key}`, `must be one of ${values.join(', ')}`);
  return value as T;
}

/** The values `key` gives `rows`, refusing one given twice: `field(i)` names the second row's field, `what` whose it is. */
export function distinct<T, K>(
  rows: readonly T[],
  key: (row: T) => K,
  field: (i: number) => string,
  what: string,
): Set<K> {
  const seen = new Set<K>();
  for (const [i, row] of rows.entries()) {
    const value = key(row);
    if (seen.has(value)) throw new GatewayInputError(field(i), `is already ${what}`);
    seen.add(value);
  }
  return seen;
}
