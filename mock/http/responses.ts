import type { MockResponse } from './types.js';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;

/** A JSON answer with the given status. */
export function json(status: number, body: unknown, headers?: Record<string, string>): MockResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A success answer: `{ error: 0, ...fields }` on HTTP 200. */
export function success(fields: Record<string, unknown>): MockResponse {
  return json(200, { error: 0, ...fields });
}

/** Options of a failure answer (`failure(...)`, {@link RequestRejection}). */
export interface FailureOptions {
  /** HTTP status; production answers validation and not-found failures on 200. @default 200 */
  status?: number;
  /** `<field>: <rule>` lines naming what was wrong, sent as `issues` next to the message. */
  issues?: string[];
  /** Extra headers (e.g. `Allow` on a 405). */
  headers?: Record<string, string>;
}

/** A failure answer: `{ error: 1, message }`, on HTTP 200 unless `status` says otherwise. */
export function failure(message: string, options: FailureOptions = {}): MockResponse {
  const body: Record<string, unknown> = { error: 1, message };
  if (options.issues?.length) body.issues = options.issues;
  return json(options.status ?? 200, body, options.headers);
}

/** Thrown inside a route to answer with a failure; the router turns it into the response it carries. */
export class RequestRejection extends Error {
  /** The answer to send. */
  readonly response: MockResponse;

  constructor(message: string, options: FailureOptions = {}) {
    super(message);
    this.name = 'RequestRejection';
    this.response = failure(message, options);
  }
}

/** Copies `headers` onto a response (later names win). */
export function withHeaders(response: MockResponse, headers: Record<string, string>): MockResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}
