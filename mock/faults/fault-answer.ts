// HOW a call fails when the fault is an answer: each API's own failure forms, as production sends them (the
// management API's HTTP 200 with `error: 1` or `error: 429` and its rate-limit headers; the messaging API's statuses
// with `{ success: false, message, error }` and its 401 body).
import { INVALID_API_KEY_BODY } from '../../src/schemas/messaging.js';
import { json } from '../http/responses.js';
import type { MockResponse } from '../http/types.js';
import { INVALID_KEY_MESSAGE } from '../management/auth.js';
import { rateLimitHeaders, tooManyRequestsBody } from '../management/rate-limit.js';
import type { FaultApi } from './fault-target.js';

/** The fault kinds that are an answer of their own (the rest change or delay the real answer, or the connection). */
export const ANSWER_KINDS = ['status', 'error', 'rate-limited', 'unauthorized', 'unavailable'] as const;

/** A kind of {@link ANSWER_KINDS}. */
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** What an answer fault says besides its kind. */
export interface AnswerDetails {
  /** HTTP status of a `status` fault. */
  status?: number | undefined;
  /** The message; each kind has production's own by default. */
  message?: string | undefined;
  /** Seconds the client is told to wait (`rate-limited`; a `Retry-After` header on `status` and `unavailable`). */
  retryAfter?: number | undefined;
  /** The management API's rate limit in force, for `X-RateLimit-Limit`. */
  limit: number;
  /** The clock's time, ms since the epoch. */
  now: number;
  /** When the caller's open rate window ends, if one is open: production's Retry-After counts down to it. */
  windowEnd?: number | undefined;
}

/** The messaging API's `error` code for a status. */
const MESSAGING_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** Words of a status, for a message nobody gave. */
const STATUS_WORDS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const statusWords = (status: number) => STATUS_WORDS[status] ?? `HTTP ${status}`;
const retryHeader = (seconds: number | undefined): Record<string, string> =>
  seconds === undefined ? {} : { 'Retry-After': String(seconds) };

/** The answer of an answer fault, in `api`'s own shape. */
export function faultAnswer(kind: AnswerKind, api: FaultApi, details: AnswerDetails): MockResponse {
  return api === 'management' ? managementAnswer(kind, details) : messagingAnswer(kind, details);
}

function managementAnswer(kind: AnswerKind, d: AnswerDetails): MockResponse {
  switch (kind) {
    case 'status':
      return json(d.status!, { error: 1, message: d.message ?? statusWords(d.status!) }, retryHeader(d.retryAfter));
    case 'error':
      return json(200, { error: 1, message: d.message ?? 'An error occurred. Please try again later.' });
    case 'rate-limited': {
      // Production answers 429 when the key's window is spent: Retry-After is what is left of it (a fresh one: 60 s).
      const seconds = d.retryAfter ?? (d.windowEnd === undefined ? 60 : Math.ceil((d.windowEnd - d.now) / 1000));
      const decision = {
        allowed: false,
        limit: d.limit,
        remaining: 0,
        resetAt: d.now + seconds * 1000,
        retryAfter: seconds,
      };
      const body = { ...tooManyRequestsBody(decision), ...(d.message !== undefined && { message: d.message }) };
      return json(200, body, rateLimitHeaders(decision));
    }
    case 'unauthorized':
      return json(403, { error: 1, message: d.message ?? INVALID_KEY_MESSAGE });
    case 'unavailable':
      return json(503, { error: 1, message: d.message ?? 'Service Unavailable' }, retryHeader(d.retryAfter));
  }
}

function messagingAnswer(kind: AnswerKind, d: AnswerDetails): MockResponse {
  const failure = (status: number, message: string, headers?: Record<string, string>) =>
    json(status, { success: false, message, error: MESSAGING_CODES[status] ?? 'ERROR' }, headers);
  switch (kind) {
    case 'status':
      return failure(d.status!, d.message ?? statusWords(d.status!), retryHeader(d.retryAfter));
    case 'error':
      // Refused when armed (FaultBook): an HTTP 200 failure is the management API's form.
      throw new TypeError('error faults are the management API’s form');
    case 'rate-limited':
      return failure(429, d.message ?? 'Too many requests.', retryHeader(d.retryAfter ?? 60));
    case 'unauthorized':
      return d.message === undefined ? json(401, INVALID_API_KEY_BODY) : failure(401, d.message);
    case 'unavailable':
      return failure(503, d.message ?? 'The gateway is temporarily unavailable.', retryHeader(d.retryAfter));
  }
}

/** The real answer with its JSON cut in the middle: a whole HTTP answer whose body does not parse. */
export function malformed(answer: MockResponse): MockResponse {
  const text = typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
  return { ...answer, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
}
