// The vocabulary of the generated event table (event-shapes.generated.ts): what the validator and its checkers read.
import type { EventRefinementName } from '../shared/event-refinements.js';

/** A string's check: zod's `startsWith`. */
export type StringCheck = readonly ['startsWith', prefix: string];

/**
 * A number's check: a number format (`int` for zod's integer formats, `number` for the others, with the format's
 * range) or a bound (`min`: zod's `greater_than`, `max`: `less_than`), inclusive or not.
 */
export type NumberCheck =
  | readonly ['format', kind: 'int' | 'number', minimum: number, maximum: number]
  | readonly ['min' | 'max', bound: number, inclusive: boolean];

/** What a value of an event must be: one node of the generated table (src/webhooks/event-shapes.generated.ts). */
export type FieldShape =
  | readonly ['string', ...StringCheck[]]
  | readonly ['number', ...NumberCheck[]]
  | readonly ['boolean']
  | readonly ['optional' | 'nullable', FieldShape]
  | readonly ['value', readonly (string | number)[]]
  | readonly ['record']
  | ObjectShape;

/** An object: its fields in order, whether unknown keys are kept (zod's looseObject), and its refinement's name. */
export type ObjectShape = readonly [
  'object',
  fields: { readonly [key: string]: FieldShape },
  keepsUnknownKeys: boolean,
  refinement?: EventRefinementName,
];
