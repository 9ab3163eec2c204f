import type * as z from 'zod/mini';
import { expandUnion, valueAt } from '../../src/core/validation.js';
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from '../http/body-limit.js';
import { RequestRejection } from '../http/responses.js';
import type { MockRequest } from '../http/types.js';

/** A zod issue as `{ field, rule }`: `field` is the dotted path (`data.ssid`), `rule` what it must be. */
export interface IssueText {
  /** Dotted path of the offending field; `body` for the body itself. */
  field: string;
  /** The rule it broke, e.g. `must be a string`. */
  rule: string;
}

/**
 * Reads a JSON object body. An absent or blank body reads as `{}` (the endpoint then names what is missing).
 * Refuses bodies over 1 MB (HTTP 413), bodies not sent as `application/json`, malformed JSON and non-objects.
 */
export function readJsonBody(req: MockRequest): Record<string, unknown> {
  const text = req.body;
  if (text === undefined || text.trim() === '') return {};
  // A string of n chars is at most 3n UTF-8 bytes (surrogate pairs: 4 bytes for 2 chars), so most bodies skip encoding.
  if (text.length * 3 > MAX_BODY_BYTES && new TextEncoder().encode(text).length > MAX_BODY_BYTES) {
    throw new RequestRejection(BODY_TOO_LARGE_MESSAGE, { status: 413, issues: ['body: must be at most 1 MB'] });
  }
  const contentType = req.headers['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType?.endsWith('+json')) {
    const got = contentType ? `got ${JSON.stringify(contentType.slice(0, 80))}` : 'none was sent';
    throw new RequestRejection(
      `Invalid request: Content-Type must be application/json (${got}); send the body as JSON with that header.`,
      { issues: ['Content-Type: must be application/json'] },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's own message quotes the body, which may hold secrets; say where to look instead.
    throw new RequestRejection('Invalid request: the body is not valid JSON; send a JSON object.', {
      issues: ['body: must be valid JSON'],
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new RequestRejection('Invalid request: the body must be a JSON object.', {
      issues: ['body: must be a JSON object'],
    });
  }
  return parsed as Record<string, unknown>;
}

/** Options of {@link parseWith}. */
export interface ParseOptions {
  /** Production's own message for these issues, when it has one; the generic `Invalid request: ...` otherwise. */
  message?(issues: IssueText[], raw: z.core.$ZodIssue[]): string | undefined;
}

/** Parses `input` with a shared schema, or throws a rejection naming each field and rule. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown, options: ParseOptions = {}): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A union (QR bodies) names the field of the variant its tag picked, or the tag itself, not the body as a whole.
  const raw = result.error.issues.flatMap(expandUnion);
  const issues = raw.map((issue) => describeIssue(issue, input));
  throw new RequestRejection(options.message?.(issues, raw) ?? invalidRequestMessage(issues), {
    issues: issues.map((i) => `${i.field}: ${i.rule}`),
  });
}

/** `Invalid request: "a" must be a string; "b" is required.` */
export function invalidRequestMessage(issues: IssueText[]): string {
  return `Invalid request: ${issues.map((i) => `"${i.field}" ${i.rule}`).join('; ')}.`;
}

/** Rejects with the generic message for one field. */
export function rejectField(field: string, rule: string): never {
  throw new RequestRejection(invalidRequestMessage([{ field, rule }]), { issues: [`${field}: ${rule}`] });
}

/** Turns a zod issue into a field and a rule a person can act on. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): IssueText {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  return { field, rule: ruleOf(issue, valueAt(input, issue.path)) };
}

function ruleOf(issue: z.core.$ZodIssue, value: unknown): string {
  const custom = issue.message && issue.message !== 'Invalid input' ? issue.message : undefined;
  switch (issue.code) {
    // A required field sent as null is missing, as production (PHP) reads it.
    case 'invalid_type':
      return value === undefined || value === null ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if (value === undefined || value === null) return 'is required';
      if (options) return `must be one of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
      return unionOfTypesRule(issue.errors) ?? 'has an unsupported shape';
    }
    default:
      return custom ?? 'is invalid';
  }
}

/**
 * A union of types (an integer, or a string of digits): the variant of the value's own type says what is wrong;
 * a value of none of its types hears the types.
 */
function unionOfTypesRule(variants: z.core.$ZodIssue[][]): string | undefined {
  const wrongType = (i: z.core.$ZodIssue) => i.code === 'invalid_type' && i.path.length === 0;
  const own = variants.find((v) => v.length > 0 && !v.some(wrongType));
  if (own?.length === 1 && own[0]?.path.length === 0 && own[0].message) return own[0].message;
  const expected = variants.map((v) => v.find(wrongType)).filter((i) => i?.code === 'invalid_type');
  if (expected.length !== variants.length) return undefined;
  return `must be ${expected.map((i) => article((i as { expected: string }).expected)).join(' or ')}`;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'object' || expected === 'array') return `an ${expected}`;
  return `a ${expected}`;
}

/** Reads a positive integer path parameter, or rejects naming it. */
export function readId(params: Record<string, string>, name = 'id'): number {
  const text = params[name] ?? '';
  if (!/^[1-9]\d{0,14}$/.test(text)) {
    const shown = JSON.stringify(text.length > 32 ? `${text.slice(0, 32)}...` : text);
    throw new RequestRejection(`Invalid request: "${name}" must be a positive integer (got ${shown}).`, {
      issues: [`${name}: must be a positive integer`],
    });
  }
  return Number(text);
}
