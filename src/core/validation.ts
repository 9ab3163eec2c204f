import type * as z from 'zod/mini';
import { type Issue, ValidationError } from './errors.js';

type RawIssue = z.core.$ZodIssue;

/** Reads the value at `path` in `input`, for telling "missing" from "wrong". */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * One sentence fragment per issue, e.g. `is required`, `must be one of "a", "b"`. Zod/mini ships no messages, so these
 * are ours. The schemas state their own rules as messages (src/schemas/rules.ts), so only the structural codes remain.
 */
function ruleOf(issue: RawIssue, input: unknown): string {
  // Schema-specific messages ("must be a URL") win; zod's generic ones ("Invalid input", or the English locale's
  // "Invalid option: ..." when classic zod is loaded elsewhere) are replaced by ours, so messages never vary.
  if (issue.message && !/^Invalid\b/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return 'is required';
      return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      return 'does not match any allowed shape';
    default:
      return 'is invalid';
  }
}

/** Renders a path as `data.phone` or `items[2].id`, prefixed (e.g. `body`). */
export function pathToString(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(root)';
}

/** Lists issues for a message: `body.email must be a valid email address; body.password is required`. */
export function describe(prefix: string, issues: readonly Issue[]): string {
  return issues.map((i) => `${pathToString(prefix, i.path)} ${i.message}`).join('; ');
}

/** The issue of a union variant whose tag (a literal at a top-level key, e.g. QR `type`) did not match. */
const tagMiss = (variant: readonly RawIssue[]) =>
  variant.find((i) => i.code === 'invalid_value' && i.path.length === 1);

/**
 * Replaces a union's "matches no variant" with what the caller can act on: the issues of the one variant whose tag
 * matched (`data` must be an object), or, when no tag matched, the tags allowed (`type` must be one of ...).
 */
export function expandUnion(issue: RawIssue): RawIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const within = (i: RawIssue): RawIssue => ({ ...i, path: [...issue.path, ...i.path] });
  const matched = issue.errors.filter((variant) => !tagMiss(variant));
  if (matched.length === 1) return matched[0]!.flatMap((i) => expandUnion(within(i)));
  const misses = issue.errors.map(tagMiss);
  const first = misses[0];
  if (matched.length > 0 || !first || misses.some((m) => m?.path[0] !== first.path[0])) return [issue];
  const values = misses.flatMap((m) => (m?.code === 'invalid_value' ? m.values : []));
  return [within({ ...first, values } as RawIssue)];
}

/** Turns schema issues into linkgate issues with readable rules. */
export function toIssues(issues: readonly RawIssue[], input: unknown): Issue[] {
  return issues
    .flatMap(expandUnion)
    .map((issue) => ({ path: issue.path, message: ruleOf(issue, input), code: issue.code }));
}

/**
 * Checks `value` against `schema` and returns the parsed value (unknown keys stripped), or throws a
 * ValidationError naming the field and the rule.
 * @param operation - e.g. `domains.create`, for the message.
 * @param prefix - the argument's name, e.g. `body`.
 */
export function validate<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  operation: string,
  prefix: string,
): z.output<S> {
  const result = (schema as unknown as z.ZodMiniType).safeParse(value);
  if (result.success) return result.data as z.output<S>;
  const issues = toIssues(result.error.issues, value);
  const first = issues[0] ?? { path: [], message: 'is invalid' };
  const field = pathToString(prefix, first.path);
  throw new ValidationError(
    `${operation}: ${describe(prefix, issues)}. Fix the argument; nothing was sent.`,
    field,
    first.message,
    issues,
  );
}

/** Checks that a path id is a positive integer, so `undefined` or `"3; drop"` never reaches a URL. */
export function validateId(value: unknown, name: string, operation: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  const rule = 'must be a positive integer';
  const got = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new ValidationError(`${operation}: ${name} ${rule} (got ${got}). Nothing was sent.`, name, rule, [
    { path: [name], message: rule },
  ]);
}
