import type { RateLimitInfo } from './rate-limit-info.js';

/** One problem found by a schema: where (`path`) and what rule was broken (`message`). */
export interface Issue {
  /** Where the problem is, e.g. `['data', 'phone']`. */
  readonly path: readonly PropertyKey[];
  /** The rule that was broken, e.g. `must be a positive integer`. */
  readonly message: string;
  /** The schema's issue code (`invalid_type`, `too_small`, ...). */
  readonly code?: string;
}

/**
 * Base class of every error linkgate throws; catch this to catch them all.
 *
 * @example
 * try { await client.domains.list() } catch (e) { if (e instanceof LinkgateError) console.error(e.message) }
 */
export class LinkgateError extends Error {
  /**
   * During paging: the page number whose fetch failed, so `list({ ...query, page: error.page })` resumes there.
   * Undefined outside pagination.
   */
  declare page?: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Defines a non-enumerable property, so logging or serialising an error never dumps response data (which may hold secrets). */
function hidden<T extends object>(target: T, key: string, value: unknown): void {
  // A property defineProperty creates is non-enumerable unless told otherwise.
  Object.defineProperty(target, key, { value, writable: true, configurable: true });
}

/** What the API answered, as the error classifiers see it. */
export interface APIErrorInit {
  /** HTTP status of the answer (production often answers failures with 200). */
  status: number;
  /** The failure message from the body, or a description of what was wrong with the answer. */
  message: string;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** The response headers. */
  headers: Headers;
  /** The rate-limit figures the answer stated (or, for a request refused before sending, the client's budget). */
  rateLimit?: RateLimitInfo | null;
}

/**
 * The API answered, but with a failure. `status` is the real HTTP status: production answers most failures with
 * HTTP 200 and `error: 1` in the body, so check the class (`instanceof NotFoundError`), not the status.
 */
export class APIError extends LinkgateError {
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** Response headers. */
  declare readonly headers: Headers;
  /** The parsed JSON body, or the raw text when it was not JSON (non-enumerable: not printed by inspect). */
  declare readonly body: unknown;
  /**
   * The rate-limit figures this answer stated (`X-RateLimit-*`), or null when it stated none; for a RateLimitError the
   * client raised without sending, its budget as it stood.
   */
  declare rateLimit: RateLimitInfo | null;
  /** The attempts the call made, this answer's included (0 when refused before sending). Set by the client. */
  declare attempts: number;

  constructor(init: APIErrorInit) {
    super(init.message);
    this.status = init.status;
    this.headers = init.headers;
    hidden(this, 'body', init.body);
    this.rateLimit = init.rateLimit ?? null;
    this.attempts = 1;
  }
}

/** The API key is missing, wrong or expired (production: HTTP 403 "A valid API key is required"). */
export class AuthenticationError extends APIError {}

/** The key is valid but may not use this endpoint (production: HTTP 403 on admin endpoints for non-admins). */
export class PermissionDeniedError extends APIError {}

/** The record does not exist (production: HTTP 200 with "... not found" / "... does not exist"). */
export class NotFoundError extends APIError {}

/** The API rejected the request's data (production: HTTP 200 with `error: 1` and a message saying why). */
export class BadRequestError extends APIError {}

/** The per-key request budget is spent (HTTP 429, or `error: 429` in an HTTP 200 body). */
export class RateLimitError extends APIError {
  /** Seconds until the budget refills. */
  declare readonly retryAfter: number;
  /** When the budget refills. */
  declare readonly resetAt: Date;

  constructor(init: APIErrorInit & { retryAfter: number; resetAt: Date }) {
    super(init);
    this.retryAfter = init.retryAfter;
    this.resetAt = init.resetAt;
  }
}

/** No answer came back: the connection failed (refused, reset, DNS). The request may or may not have been processed. */
export class APIConnectionError extends LinkgateError {
  /** The attempts the call made, this one included. Set by the client. */
  declare attempts: number;
}

/** No answer came back within `timeout` milliseconds. */
export class APIConnectionTimeoutError extends APIConnectionError {}

/** The caller aborted the request through its `signal`. */
export class APIUserAbortError extends LinkgateError {}

/**
 * The API answered success, but the body does not match the documented shape. `issues` say where; `body` (non-enumerable)
 * is the raw answer.
 */
export class ResponseValidationError extends LinkgateError {
  /** Where the body broke the documented shape. */
  declare readonly issues: readonly Issue[];
  /** The raw parsed body (non-enumerable: not printed by inspect, as user records carry API keys). */
  declare readonly body: unknown;

  constructor(message: string, body: unknown, issues: readonly Issue[]) {
    super(message);
    this.issues = issues;
    hidden(this, 'body', body);
  }
}

/** An argument was rejected before any request was sent. `field` and `rule` say what and why. */
export class ValidationError extends LinkgateError {
  /** The first offending field, e.g. `body.data.phone` or `id`. */
  declare readonly field: string;
  /** The rule it broke, e.g. `must be a positive integer`. */
  declare readonly rule: string;
  /** Every problem found. */
  declare readonly issues: readonly Issue[];

  constructor(message: string, field: string, rule: string, issues: readonly Issue[]) {
    super(message);
    this.field = field;
    this.rule = rule;
    this.issues = issues;
  }
}

/**
 * The answer's body was larger than `maxResponseBytes` (counted after decompression, so a gzip bomb is caught too).
 * Reading stopped at the bound; nothing was parsed. The request may or may not have been applied.
 */
export class ResponseTooLargeError extends LinkgateError {
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** Response headers. */
  declare readonly headers: Headers;
  /** The bound that was passed, in bytes (the client's `maxResponseBytes`). */
  declare readonly maxResponseBytes: number;

  constructor(message: string, init: { status: number; headers: Headers; maxResponseBytes: number }) {
    super(message);
    Object.assign(this, init);
  }
}

/**
 * The server redirected the call to another origin, or a `beforeRequest` hook returned a Request for one. linkgate
 * sends requests and follows redirects only within the `baseUrl`'s origin, so the API key, the request body, custom
 * headers and the answer never go to or come from another host.
 */
export class CrossOriginRedirectError extends LinkgateError {
  /** HTTP status of the redirect (301, 302, 303, 307, 308); 0 when a `beforeRequest` hook, not the server, pointed elsewhere. */
  declare readonly status: number;
  /** The origin the server redirected to, e.g. `https://other.example`; `null` when the runtime hides it (browsers). */
  declare readonly targetOrigin: string | null;

  constructor(message: string, init: { status: number; targetOrigin: string | null }) {
    super(message);
    Object.assign(this, init);
  }
}
