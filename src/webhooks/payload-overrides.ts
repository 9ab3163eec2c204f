import type * as z from 'zod/mini';
import { isRecord } from '../core/error-mapping.js';
import { ACK_STATUS_CODES } from '../shared/event-refinements.js';
import type { WebhookPayloadIssue } from './webhook-errors.js';

/** Dot paths from the envelope (`'data.status'`, `'device_id'`) to the values to put there. */
export type PayloadOverrides = Readonly<Record<string, unknown>>;

// Keys that would reach an object's prototype instead of the payload.
const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

type JsonObject = Record<string, unknown>;

/** Whether `path` is field names separated by single dots, none of which would reach a prototype. */
export const isOverridePath = (path: string): boolean =>
  !path.split('.').some((key) => key === '' || UNSAFE_KEYS.has(key));

/** Splits a dot path into field names, or throws naming the path and the rule. */
export function overridePath(path: string): string[] {
  if (!isOverridePath(path)) {
    throw new TypeError(
      `options.set[${JSON.stringify(path)}] is not a dot path of field names: use names separated by single dots, such as "data.status" (__proto__, prototype and constructor are not allowed).`,
    );
  }
  return path.split('.');
}

/** Writes each override into `payload` (a JSON copy the caller owns); `undefined` removes the field. */
export function applyOverrides(payload: JsonObject, overrides: PayloadOverrides): void {
  for (const [path, value] of Object.entries(overrides)) {
    const keys = overridePath(path);
    let target = payload;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i] as string;
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      if (next === undefined || next === null) {
        target[key] = {};
        target = target[key] as JsonObject;
      } else if (isRecord(next)) {
        target = next;
      } else {
        const at = keys.slice(0, i + 1).join('.');
        throw new TypeError(
          `options.set[${JSON.stringify(path)}]: ${at} is ${Array.isArray(next) ? 'an array' : `a ${typeof next}`}, so it has no field "${keys[i + 1]}"; set ${at} itself.`,
        );
      }
    }
    const last = keys[keys.length - 1] as string;
    if (value === undefined) delete target[last];
    else target[last] = value;
  }
}

/** Two fields of one event that must agree, and the value of the second that goes with each value of the first. */
interface FieldPair {
  event: string;
  first: string;
  second: string;
  values: Readonly<Record<string, unknown>>;
}

/** The fields the event schemas tie together: a receipt's `status_code` must match its `status`. */
const FIELD_PAIRS: readonly FieldPair[] = [
  { event: 'message.ack', first: 'data.status', second: 'data.status_code', values: ACK_STATUS_CODES },
];

/** A field the overrides did not name, set to agree with its partner, which they did. */
export interface PairedOverride {
  /** The field set to match, e.g. `'data.status_code'`. */
  path: string;
  /** The value it was given, e.g. `3`. */
  value: unknown;
  /** The overridden field it matches, e.g. `'data.status'`. */
  matches: string;
}

/**
 * The partners of fields set alone: setting `data.status` of a `message.ack` to `'read'` sets `data.status_code` to
 * 3, and the other way round. Nothing when both are set (the schema then checks they agree), a field is removed, or
 * the value has no partner (an invalid one, left for the schema to name).
 */
export function pairedOverrides(event: unknown, overrides: PayloadOverrides): PairedOverride[] {
  const paired: PairedOverride[] = [];
  for (const { event: name, first, second, values } of FIELD_PAIRS) {
    if (event !== name || Object.hasOwn(overrides, first) === Object.hasOwn(overrides, second)) continue;
    const [given, other] = Object.hasOwn(overrides, first) ? [first, second] : [second, first];
    const value = overrides[given];
    const partner =
      given === first
        ? typeof value === 'string' && Object.hasOwn(values, value)
          ? values[value]
          : undefined
        : Object.keys(values).find((key) => values[key] === value);
    if (partner !== undefined) paired.push({ path: other, value: partner, matches: given });
  }
  return paired;
}

/** A zod schema's definition, as far as walking object shapes needs it. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType): SchemaDef => schema._zod.def as SchemaDef;

/**
 * An issue for an override path that names no field of the event's schema (a typo such as `data.stauts` would
 * otherwise add a field every receiver ignores), or undefined when the path is known or leads into a free-form record.
 */
export function unknownFieldIssue(schema: z.core.$ZodType, path: string[]): WebhookPayloadIssue | undefined {
  let def = defOf(schema);
  for (let i = 0; i < path.length; i++) {
    while (def.innerType && (def.type === 'optional' || def.type === 'nullable')) def = defOf(def.innerType);
    if (def.type === 'record') return undefined;
    const parent = path.slice(0, i).join('.') || 'the payload';
    const key = path[i] as string;
    if (def.type !== 'object' || !def.shape) {
      return { path, code: 'unrecognized_keys', message: `${parent} holds no fields, so "${key}" can't be set in it` };
    }
    const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
    if (field === undefined) {
      return {
        path,
        code: 'unrecognized_keys',
        message: `"${key}" is not a field of ${parent}; its fields are ${Object.keys(def.shape).join(', ')}`,
      };
    }
    def = defOf(field);
  }
  return undefined;
}
