// The English messages of the issues the event schemas can raise, worded as zod's `en` locale words them (the words
// classic zod used, recorded in test/webhooks/payload-issues.test.ts). Passed to each parse rather than set with
// zod's global `config`, so importing linkgate/webhooks changes nothing in the app's own zod set-up, and a receiver's
// bundle carries these few sentences instead of the whole locale (test/webhooks/issue-messages.test.ts checks them
// against it).
import type * as z from 'zod/mini';

/** What `input` is, in zod's words (zod's `util.parsedType`: its namespace would pull all of zod's utilities in). */
function parsedType(input: unknown): string {
  if (typeof input === 'number') return Number.isNaN(input) ? 'nan' : 'number';
  if (typeof input !== 'object' || input === null) return input === null ? 'null' : typeof input;
  if (Array.isArray(input)) return 'array';
  const made = (input as { constructor?: { name: string } }).constructor;
  return Object.getPrototypeOf(input) !== Object.prototype && 'constructor' in input && made ? made.name : 'object';
}

/** A literal as zod quotes it: strings in double quotes, bigints with `n`. */
function literal(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : typeof value === 'bigint' ? `${value}n` : `${value}`;
}

/** A type name as `en` prints it: `NaN` for not-a-number, `Infinity` for an infinite number. */
function typeName(type: string, input?: unknown): string {
  if (type === 'number' && typeof input === 'number' && !Number.isFinite(input)) return String(input);
  return type === 'nan' ? 'NaN' : type;
}

/** The comparison before a bound: `exactly `, `<=`, `<` (or `>=`, `>`). */
function bound(issue: { exact?: boolean; inclusive?: boolean }, sign: string): string {
  return issue.exact ? 'exactly ' : issue.inclusive ? `${sign}=` : sign;
}

/**
 * The message of one raw issue of the event schemas (invalid_type, invalid_value, too_big, too_small, the
 * starts_with format, invalid_key); any other code gets `en`'s catch-all "Invalid input". A refinement's own
 * message (status_code against status) outranks this map, as zod's error precedence says.
 */
export function eventIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${typeName(issue.expected)}, received ${typeName(parsedType(issue.input), issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Invalid input: expected ${literal(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(literal).join('|')}`;
    case 'too_big':
      return `Too big: expected ${issue.origin ?? 'value'} to be ${bound(issue, '<')}${issue.maximum}`;
    case 'too_small':
      return `Too small: expected ${issue.origin} to be ${bound(issue, '>')}${issue.minimum}`;
    case 'invalid_format':
      if (issue.format === 'starts_with') return `Invalid string: must start with "${issue.prefix}"`;
      return 'Invalid input';
    case 'invalid_key':
      return `Invalid key in ${issue.origin}`;
    default:
      return 'Invalid input';
  }
}

/** The parse options that give the event schemas' issues their English messages. */
export const ENGLISH = { error: eventIssueMessage };
