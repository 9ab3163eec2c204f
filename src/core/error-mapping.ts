import {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.js';
import { parseReset } from './rate-limiter.js';

/** An answer of the API as the error classifiers see it. */
export interface Answer {
  /** The call's method and path, e.g. `PUT /api/domain/3/update`. */
  name: string;
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  body: unknown;
  /** The raw body text. */
  text: string;
  /** Whether `text` parsed as JSON. */
  isJson: boolean;
  /** The clock's time when the answer arrived, ms since the epoch. */
  now: number;
}

/**
 * Decides whether an answer is a failure, and which. Return null to let the generic rules decide (HTTP status, empty
 * or non-JSON body). Each API family plugs in its own: the management API reports failures in the body, the
 * messaging API with HTTP statuses.
 */
export type AnswerClassifier = (answer: Answer) => APIError | null;

/** Whether a parsed body is a JSON object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body's `message` string, if any. */
export function bodyMessage(body: unknown): string | undefined {
  return (isRecord(body) && typeof body.message === 'string' && body.message) || undefined;
}

/** `(GET /api/x answered HTTP 200)`: where a failure came from, for messages. */
export function where(answer: Answer, detail = ''): string {
  return `(${answer.name} answered HTTP ${answer.status}${detail})`;
}

/** `Retry-After` in seconds, from its delay-seconds or HTTP-date form (RFC 9110); NaN when absent or unreadable. */
export function parseRetryAfter(value: unknown, now: number): number {
  if (typeof value === 'number') return value >= 0 ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // An unreadable date (or an empty value) parses as NaN, which Math.max passes on.
  return Math.max(0, (Date.parse(trimmed) - now) / 1000);
}

/** Builds a RateLimitError from `Retry-After` (body or header, seconds or HTTP date) or `X-RateLimit-Reset`. */
export function rateLimitErrorFrom(answer: Answer, message?: string): RateLimitError {
  const { body, headers, now } = answer;
  let retryAfter = parseRetryAfter(isRecord(body) ? body['Retry-After'] : undefined, now);
  if (!Number.isFinite(retryAfter)) retryAfter = parseRetryAfter(headers.get('retry-after'), now);
  if (!Number.isFinite(retryAfter)) {
    const resetHeader = parseReset(headers.get('x-ratelimit-reset'), now);
    retryAfter = resetHeader !== null ? (resetHeader - now) / 1000 : 60;
  }
  retryAfter = Math.max(0, Math.ceil(retryAfter));
  return new RateLimitError({
    status: answer.status,
    message: `${message ?? 'Too many requests.'} Retry after ${retryAfter} s ${where(answer)}.`,
    body: body ?? answer.text,
    headers,
    retryAfter,
    resetAt: new Date(now + retryAfter * 1000),
  });
}

/** The error class of each HTTP status that has one; any other failing status is a plain APIError. */
const STATUS_ERRORS: Record<number, typeof APIError> = {
  400: BadRequestError,
  422: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
};

/**
 * The error for a failing HTTP status when the body says nothing more useful; `hint` (e.g. which key to check) goes
 * after the body's message.
 */
export function errorForStatus(answer: Answer, hint = ''): APIError {
  const message = bodyMessage(answer.body);
  const detail = answer.isJson ? '' : answer.text === '' ? ' with an empty body' : ' with a non-JSON body';
  const init: APIErrorInit = {
    status: answer.status,
    message: `${message ?? 'Request failed.'}${hint} ${where(answer, detail)}`,
    body: answer.isJson ? answer.body : answer.text,
    headers: answer.headers,
  };
  if (answer.status === 429) return rateLimitErrorFrom(answer, message);
  return new (STATUS_ERRORS[answer.status] ?? APIError)(init);
}

/** A 2xx answer whose body is empty or not JSON (production bugs): an APIError rather than a crash. */
export function unreadableBodyError(answer: Answer): APIError {
  const what = answer.text === '' ? 'an empty body' : `a body that is not JSON (${answer.text.length} characters)`;
  return new APIError({
    status: answer.status,
    message: `${answer.name} answered HTTP ${answer.status} with ${what}; expected JSON. The request may or may not have been applied.`,
    body: answer.text,
    headers: answer.headers,
  });
}
