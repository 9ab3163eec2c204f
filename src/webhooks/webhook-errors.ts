/** Why a delivery was refused; each code maps to the HTTP status {@link createWebhookHandler} answers with. */
export const WEBHOOK_ERROR_STATUS = {
  /** The delivery has no secret header at all. */
  missing_secret_header: 401,
  /** The secret header matches none of the configured secrets. */
  secret_mismatch: 401,
  /** A header needed for a configured check is absent (see `header`). */
  missing_header: 400,
  /** A header is present but malformed, e.g. a timestamp that is not Unix seconds (see `header`). */
  invalid_header: 400,
  /** The timestamp is older than the tolerance: a replay or a badly skewed clock. */
  stale_timestamp: 401,
  /** The timestamp is further ahead than the tolerance. */
  future_timestamp: 401,
  /** The body is not JSON (or not UTF-8). */
  invalid_json: 400,
  /** The JSON does not match the envelope or the event's payload schema (see `issues`). */
  invalid_payload: 400,
  /** The event or device headers disagree with the body. */
  event_mismatch: 400,
  /** The body is larger than the limit (1 MB by default). */
  body_too_large: 413,
  /** The body did not arrive in full within `bodyTimeoutMs` (8 s by default): a stalled or hostile client. */
  body_timeout: 408,
  /** The connection ended (or the body stream failed) before the whole body arrived. */
  body_incomplete: 400,
  /** The delivery id was already handled; acknowledge it and do nothing. */
  duplicate: 200,
  /**
   * Another copy of the delivery is being handled right now (its dedupe claim is held): answered 503 so the gateway
   * tries again later, when it is acknowledged or, if that copy failed, handled.
   */
  in_progress: 503,
  /**
   * The receiver passed a parsed object (or nothing, or a body already read) instead of the raw body: a set-up bug in
   * the receiver, reported to `onError` once per handler.
   */
  raw_body_required: 500,
} as const;

/** A machine-readable reason a delivery was refused. */
export type WebhookErrorCode = keyof typeof WEBHOOK_ERROR_STATUS;

/** One schema problem in a refused payload: where (`path`) and what rule failed (`message`). */
export interface WebhookPayloadIssue {
  /** Path inside the JSON body, e.g. `['data', 'status_code']`. */
  path: PropertyKey[];
  /** The rule that failed, in words. */
  message: string;
  /** The zod issue code, e.g. `invalid_type`. */
  code: string;
}

/** Extra facts about a refusal. */
export interface WebhookErrorDetails {
  /** The header at fault, for `missing_header` / `invalid_header` / `event_mismatch`. */
  header?: string;
  /** The schema problems, for `invalid_payload`. */
  issues?: WebhookPayloadIssue[];
  /** The delivery id, for `duplicate`. */
  deliveryId?: string;
}

/**
 * A delivery that did not pass verification. `code` says why, `status` is the HTTP status to answer with, and the
 * message says how to fix it. Messages never contain a secret, nor any header value the sender chose.
 *
 * @example
 * try {
 *   const event = await verifyWebhook(request, { secret });
 * } catch (err) {
 *   if (err instanceof WebhookVerificationError) return Response.json(err.toJSON(), { status: err.status });
 *   throw err;
 * }
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Why the delivery was refused. */
  readonly code: WebhookErrorCode;
  /** The HTTP status a receiver should answer with (200 for `duplicate`, so the gateway stops retrying). */
  readonly status: number;
  /** The header at fault, when one is. */
  readonly header?: string;
  /** The schema problems, for `invalid_payload`. */
  readonly issues?: WebhookPayloadIssue[];
  /** The delivery id, for `duplicate`. */
  readonly deliveryId?: string;

  constructor(code: WebhookErrorCode, message: string, details: WebhookErrorDetails = {}) {
    super(message);
    this.code = code;
    this.status = WEBHOOK_ERROR_STATUS[code];
    if (details.header !== undefined) this.header = details.header;
    if (details.issues !== undefined) this.issues = details.issues;
    if (details.deliveryId !== undefined) this.deliveryId = details.deliveryId;
  }

  /** The JSON answer body: `{ status: 'error', code, message }` (plus `header` / `issues` when set). */
  toJSON(): {
    status: 'error';
    code: WebhookErrorCode;
    message: string;
    header?: string;
    issues?: WebhookPayloadIssue[];
  } {
    const body: ReturnType<WebhookVerificationError['toJSON']> = {
      status: 'error',
      code: this.code,
      message: this.message,
    };
    if (this.header !== undefined) body.header = this.header;
    if (this.issues !== undefined) body.issues = this.issues;
    return body;
  }
}
