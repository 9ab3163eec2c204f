import { type Clock, systemClock } from '../shared/clock.js';
import { matchesAny } from '../shared/constant-time.js';
import { type DedupeStore, MemoryDedupeStore } from './dedupe.js';
import { checkDedupeKey, type DedupeKeyOption, dedupeKeyOf } from './dedupe-key.js';
import { recordOnce } from './delivery-claims.js';
import { DEFAULT_HEADER_PREFIX } from './delivery-headers.js';
import { type HeaderSource, readHeader } from './header-reader.js';
import { type ParsedWebhookEvent, parseEventText } from './parse.js';
import {
  type BodyDeadline,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  type RawBody,
  rawBodyText,
  readRequestText,
} from './raw-body.js';
import { compileSecrets, type SecretBook, type WebhookSecretOption } from './secrets.js';
import { WebhookVerificationError } from './webhook-errors.js';

/** A delivery as raw parts: headers (web `Headers` or Node's headers object) and the raw body (text or bytes). */
export interface WebhookDeliveryInput {
  /** The request headers. */
  headers: HeaderSource;
  /** The raw body exactly as received: a string, `Uint8Array`, `ArrayBuffer` or Node `Buffer`; never a parsed object. */
  body: RawBody;
}

/** How {@link verifyWebhook} and {@link verifyWebhookSync} check a delivery; read afresh on every call. */
export interface VerifyWebhookOptions {
  /** The webhook secret(s): `'whsec_live_…'`, a list during rotation, or `{ tenant, devices: { [deviceId]: 'whsec_dev_…' } }`. */
  secret: WebhookSecretOption;
  /**
   * How far, in seconds, `X-Service-Timestamp` may be from now in either direction; `false` turns the check off.
   * @default 300
   */
  tolerance?: number | false;
  /**
   * Where the current time comes from: `now()` for the timestamp window, and `setTimeout` (when the clock has it) for
   * `bodyTimeoutMs`.
   * @default systemClock
   */
  clock?: Pick<Clock, 'now'> & Partial<Pick<Clock, 'setTimeout'>>;
  /**
   * The prefix of the gateway's headers, for deployments that brand them differently.
   * @default 'X-Service-'
   */
  headerPrefix?: string;
  /**
   * The largest body accepted, in bytes.
   * @default 1_048_576 (1 MB)
   */
  maxBodyBytes?: number;
  /**
   * How long a `Request` body may take to arrive, in ms, counted from when reading starts (after the secret matched);
   * past it reading stops and the delivery is refused with `body_timeout` (408), so a never-ending body cannot hold
   * the receiver. `toNodeHandler` applies the same bound to the socket, from the request's arrival.
   * @default 8000 (the gateway abandons an attempt after 8 s)
   */
  bodyTimeoutMs?: number;
}

/**
 * Options of {@link createWebhookVerifier} and {@link createWebhookHandler}: the verification options plus `dedupe`,
 * which needs an object that lives across deliveries to remember their ids.
 */
export interface WebhookVerifierOptions extends VerifyWebhookOptions {
  /**
   * Records deliveries so a repeated one is reported as a duplicate instead of handled twice: a store (e.g.
   * `RedisDedupeStore` from `linkgate/redis`, see {@link DedupeStore}), or `true` for an in-memory
   * {@link MemoryDedupeStore} (10,000 ids) owned by this verifier or handler.
   * @default off
   */
  dedupe?: DedupeStore | boolean;
  /**
   * What a repeated delivery is recognised by: `'deliveryId'`, the `X-Service-Delivery-ID` header (required then), the
   * same on every retry and replay of the documented gateway; `'event'`, the event's own identity (event, device, message
   * id, status..., see the README's table), for gateways that send every attempt with a new delivery id; or a
   * function `(event, deliveryId) => key`.
   * @default 'deliveryId'
   */
  dedupeKey?: DedupeKeyOption;
  /**
   * How long a handled delivery is remembered by `dedupe`, in ms. The gateway's retries span about 2.5 minutes (6
   * attempts of up to 8 s, 93 s of waits plus jitter); manual replays of dead letters can come hours later.
   * @default 86_400_000 (24 h)
   */
  dedupeTtlMs?: number;
}

/** The outcome of {@link WebhookVerifier.verifyDelivery}. */
export interface VerifiedDelivery {
  /** The validated event. */
  event: ParsedWebhookEvent;
  /** The `X-Service-Delivery-ID` header, when present. */
  deliveryId: string | undefined;
  /**
   * The key `dedupe` recorded the delivery under (see `dedupeKey`), e.g. to `dedupe.delete(key)` when your processing
   * fails; undefined without `dedupe`.
   */
  dedupeKey: string | undefined;
  /** True when `dedupe` has seen this delivery before: acknowledge it and do not handle it again. */
  duplicate: boolean;
}

/** Options checked and pre-computed once: secret bytes, lower-cased header names. */
export interface CompiledVerifier {
  readonly options: WebhookVerifierOptions;
  readonly secrets: SecretBook;
  readonly tolerance: number | false;
  readonly clock: Pick<Clock, 'now'>;
  readonly dedupe: DedupeStore | undefined;
  readonly dedupeKey: DedupeKeyOption;
  readonly dedupeTtlMs: number;
  readonly maxBodyBytes: number;
  readonly body: BodyDeadline;
  readonly names: HeaderNames;
}

interface HeaderNames {
  readonly prefix: string;
  readonly secret: string;
  readonly deliveryId: string;
  readonly event: string;
  readonly deviceId: string;
  readonly timestamp: string;
}

/** Header values a delivery carries, read once. */
interface DeliveryHeaders {
  deliveryId: string | undefined;
  event: string | undefined;
  deviceId: string | undefined;
}

const wallClock: Pick<Clock, 'now'> = { now: () => Date.now() };
const DIGITS = /^\d{1,15}$/;

/**
 * Verifies deliveries with options checked once at set-up: a bad secret throws here, naming the option, not on the
 * first delivery.
 *
 * @example
 * const verifier = createWebhookVerifier({ secret: process.env.WEBHOOK_SECRET! });
 * const event = await verifier.verify(request);
 */
export function createWebhookVerifier(options: WebhookVerifierOptions): WebhookVerifier {
  return new Verifier(compile(options));
}

/** Verifies deliveries against one set of options; see {@link createWebhookVerifier}. */
export interface WebhookVerifier {
  /** The largest body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** How long a body may take to arrive, in ms. */
  readonly bodyTimeoutMs: number;
  /**
   * See {@link verifyWebhook}. With `dedupe`, a delivery id seen before throws `code: 'duplicate'` (status 200):
   * acknowledge it, don't handle it.
   */
  verify(input: Request | WebhookDeliveryInput): Promise<ParsedWebhookEvent>;
  /** See {@link verifyWebhookSync}. `dedupe`, if set, must be synchronous (e.g. {@link MemoryDedupeStore}). */
  verifySync(input: WebhookDeliveryInput): ParsedWebhookEvent;
  /**
   * Like {@link verifyWebhook}, but reports a repeated delivery as `duplicate: true` instead of throwing, and returns
   * the delivery id and dedupe key, e.g. to `dedupe.delete(dedupeKey)` when your processing fails and you want the
   * gateway's retry to run.
   */
  verifyDelivery(input: Request | WebhookDeliveryInput): Promise<VerifiedDelivery>;
}

/** The verifier behind createWebhookVerifier and the one-call functions (the handler calls the functions below). */
export class Verifier implements WebhookVerifier {
  readonly #c: CompiledVerifier;

  constructor(compiled: CompiledVerifier) {
    this.#c = compiled;
  }

  /** The options as checked (a copy), for the one-call functions' memo. */
  get options(): VerifyWebhookOptions {
    return this.#c.options;
  }

  /** The largest body this verifier accepts, in bytes. */
  get maxBodyBytes(): number {
    return this.#c.maxBodyBytes;
  }

  /** How long a body may take to arrive, in ms. */
  get bodyTimeoutMs(): number {
    return this.#c.body.timeoutMs;
  }

  /** See {@link verifyWebhook}. */
  verify(input: Request | WebhookDeliveryInput): Promise<ParsedWebhookEvent> {
    if (!this.#c.dedupe && !isRequest(input)) {
      // Nothing to await: skip the async machinery on the common raw-body path.
      try {
        return Promise.resolve(this.verifySync(input));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.verifyDelivery(input).then((delivery) => {
      if (delivery.duplicate) throw duplicateError(delivery.deliveryId);
      return delivery.event;
    });
  }

  /** See {@link verifyWebhookSync}. */
  verifySync(input: WebhookDeliveryInput): ParsedWebhookEvent {
    const c = this.#c;
    const headers = checkAnyHeaders(c, input.headers);
    const event = checkBody(c, headers, rawBodyText(input.body, c.maxBodyBytes));
    const key = c.dedupe ? dedupeKeyOf(c.dedupeKey, event, headers.deliveryId) : undefined;
    if (c.dedupe && key !== undefined) {
      const seen = c.dedupe.has(key);
      if (typeof seen !== 'boolean') {
        throw new TypeError(
          'verifyWebhookSync needs a synchronous dedupe store; with an async store use verifyWebhook.',
        );
      }
      if (seen) throw duplicateError(headers.deliveryId);
      const added = c.dedupe.add(key, c.dedupeTtlMs);
      if (added !== undefined) {
        throw new TypeError(
          'verifyWebhookSync needs a synchronous dedupe store; with an async store use verifyWebhook.',
        );
      }
    }
    return event;
  }

  /** See {@link verifyWebhookDelivery}. */
  async verifyDelivery(input: Request | WebhookDeliveryInput): Promise<VerifiedDelivery> {
    const delivery = await this.verifyUnrecorded(input);
    const { dedupe, dedupeTtlMs } = this.#c;
    if (!dedupe || delivery.dedupeKey === undefined) return { ...delivery, duplicate: false };
    // Recorded now, before handling, so a retry that arrives while the caller still handles it is not handled twice.
    const added = await recordOnce(dedupe, delivery.dedupeKey, dedupeTtlMs);
    return { ...delivery, duplicate: !added };
  }

  /** Verifies a delivery and names its dedupe key without touching the store. */
  async verifyUnrecorded(input: Request | WebhookDeliveryInput): Promise<UnrecordedDelivery> {
    const c = this.#c;
    if (isRequest(input)) return verifyRequestUnrecorded(c, input);
    const headers = checkAnyHeaders(c, input.headers);
    return unrecorded(c, headers, checkBody(c, headers, rawBodyText(input.body, c.maxBodyBytes)));
  }
}

/** A verified delivery and its dedupe key, not yet looked up in the store. */
export type UnrecordedDelivery = Omit<VerifiedDelivery, 'duplicate'>;

/**
 * Verifies a `Request` and names its dedupe key without touching the store: the handler's path, which claims the key
 * in steps of its own. A function beside the class, so a receiver's bundle carries only what a `Request` needs.
 */
export async function verifyRequestUnrecorded(c: CompiledVerifier, request: Request): Promise<UnrecordedDelivery> {
  const headers = checkHeaders(c, request.headers, readWebHeader);
  // The body is read only after the secret matched, so strangers can't make us buffer a megabyte.
  const text = await readRequestText(request, c.maxBodyBytes, c.body);
  return unrecorded(c, headers, checkBody(c, headers, text));
}

function unrecorded(c: CompiledVerifier, headers: DeliveryHeaders, event: ParsedWebhookEvent): UnrecordedDelivery {
  const { deliveryId } = headers;
  return { event, deliveryId, dedupeKey: c.dedupe ? dedupeKeyOf(c.dedupeKey, event, deliveryId) : undefined };
}

/** The checked options per options object: a memo of `compile` alone, since the one-call verifiers hold no state. */
const checkedByOptions = new WeakMap<VerifyWebhookOptions, Verifier>();

/**
 * The verifier of one call of verifyWebhook / verifyWebhookSync / verifyWebhookDelivery. Nothing of a delivery is kept
 * between calls, so `dedupe`, which must remember ids, is refused here rather than silently forgetting them.
 */
function verifierOfCall(options: VerifyWebhookOptions, call: string): Verifier {
  const dedupe = (options as WebhookVerifierOptions | null | undefined)?.dedupe;
  if (dedupe !== undefined && dedupe !== false) {
    throw new TypeError(
      `options.dedupe is not an option of ${call}, which keeps nothing between calls: create one verifier with ` +
        'createWebhookVerifier({ secret, dedupe }) (or one handler with createWebhookHandler) and reuse it for every delivery.',
    );
  }
  // Checking the options (secret bytes, header names) costs as much as verifying; reuse it while no field was replaced.
  const checked = options !== null && typeof options === 'object' ? checkedByOptions.get(options) : undefined;
  if (checked && sameOptions(checked.options, options)) return checked;
  const verifier = new Verifier(compile(options));
  checkedByOptions.set(options, verifier);
  return verifier;
}

/** Whether every field is the one the options were checked with, so a replaced field is noticed. */
function sameOptions(checked: VerifyWebhookOptions, live: VerifyWebhookOptions): boolean {
  return (
    checked.secret === live.secret &&
    checked.tolerance === live.tolerance &&
    checked.clock === live.clock &&
    checked.headerPrefix === live.headerPrefix &&
    checked.maxBodyBytes === live.maxBodyBytes &&
    checked.bodyTimeoutMs === live.bodyTimeoutMs
  );
}

/** Checks the options once and pre-computes what every delivery needs; for the handler and createWebhookVerifier. */
export function compile(options: WebhookVerifierOptions): CompiledVerifier {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('options are required: pass at least { secret }.');
  }
  const secrets = compileSecrets(options.secret);
  const tolerance = options.tolerance ?? 300;
  if (tolerance !== false && !(typeof tolerance === 'number' && tolerance >= 0 && Number.isFinite(tolerance))) {
    throw new TypeError(
      'options.tolerance must be a number of seconds >= 0, or false to turn the timestamp check off.',
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError('options.maxBodyBytes must be a positive integer number of bytes.');
  }
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (!Number.isInteger(bodyTimeoutMs) || bodyTimeoutMs < 1) {
    throw new TypeError(
      `options.bodyTimeoutMs must be a positive integer number of milliseconds; got ${String(bodyTimeoutMs)}.`,
    );
  }
  const dedupeTtlMs = options.dedupeTtlMs ?? 86_400_000;
  if (!(dedupeTtlMs > 0)) throw new TypeError('options.dedupeTtlMs must be a positive number of milliseconds.');
  const dedupe = options.dedupe === true ? new MemoryDedupeStore() : options.dedupe || undefined;
  const dedupeKey = checkDedupeKey(options.dedupeKey);
  if (dedupe) {
    const missing = (['has', 'add', 'delete'] as const).filter((method) => typeof dedupe[method] !== 'function');
    if (missing.length > 0) {
      throw new TypeError(
        `options.dedupe must be true or a store with has(id), add(id, ttlMs) and delete(id) methods (see DedupeStore); ` +
          `it has no ${missing.join(' or ')}. delete(id) releases a delivery whose handler failed, so the gateway's retry runs it.`,
      );
    }
  }
  const prefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  if (typeof prefix !== 'string' || !/^[A-Za-z0-9-]*$/.test(prefix)) {
    throw new TypeError("options.headerPrefix must be letters, digits and dashes, e.g. 'X-Service-'.");
  }
  const lower = prefix.toLowerCase();
  return {
    options: { ...options },
    secrets,
    tolerance,
    clock: options.clock ?? wallClock,
    dedupe,
    dedupeKey,
    dedupeTtlMs,
    maxBodyBytes,
    // A clock with only now() (allowed for the timestamp window) times bodies with the system clock.
    body: { timeoutMs: bodyTimeoutMs, clock: options.clock?.setTimeout ? (options.clock as Clock) : systemClock },
    names: {
      prefix,
      secret: `${lower}secret`,
      deliveryId: `${lower}delivery-id`,
      event: `${lower}event`,
      deviceId: `${lower}device-id`,
      timestamp: `${lower}timestamp`,
    },
  };
}

/** {@link checkHeaders} for headers of either shape, as given by the caller (possibly none at all). */
function checkAnyHeaders(c: CompiledVerifier, headers: HeaderSource): DeliveryHeaders {
  if (headers === null || typeof headers !== 'object') {
    throw new WebhookVerificationError(
      'missing_secret_header',
      `The delivery has no headers, so no ${c.names.prefix}Secret. Pass the request's headers (a Headers object or Node's req.headers).`,
    );
  }
  return checkHeaders(c, headers, readHeader);
}

/** Reads a header of a web `Headers`: all a `Request` needs, so the handler's bundle skips Node's header shape. */
const readWebHeader = (headers: Headers, lowerName: string): string | undefined => headers.get(lowerName) ?? undefined;

/** Secret, device and timestamp checks: everything decidable from the headers alone, read by `read`. */
function checkHeaders<H extends HeaderSource>(
  c: CompiledVerifier,
  headers: H,
  read: (headers: H, lowerName: string) => string | undefined,
): DeliveryHeaders {
  const { names } = c;
  const secret = read(headers, names.secret);
  if (secret === undefined) {
    throw new WebhookVerificationError(
      'missing_secret_header',
      `The delivery has no ${names.prefix}Secret header. The gateway sends it on every delivery, so this request did not come from it, or a proxy dropped it. If your deployment brands its headers differently, set headerPrefix.`,
      { header: `${names.prefix}Secret` },
    );
  }
  const deviceId = read(headers, names.deviceId);
  if (deviceId === undefined && c.secrets.hasDeviceSecrets) {
    throw new WebhookVerificationError(
      'missing_header',
      `The delivery has no ${names.prefix}Device-ID header, which decides between device and tenant secrets (some devices have their own secret). The gateway sends it on every delivery.`,
      { header: `${names.prefix}Device-ID` },
    );
  }
  if (!matchesAny(secret, c.secrets.candidatesFor(deviceId))) {
    throw new WebhookVerificationError(
      'secret_mismatch',
      `The ${names.prefix}Secret header does not match the configured webhook secret${c.secrets.hasDeviceSecrets ? ' for this device' : ''}. ` +
        'Copy the secret again from the dashboard; during a rotation configure the old and the new one as a list. ' +
        'A device with its own webhook URL presents its whsec_dev_ secret, other devices the tenant whsec_live_ secret.',
    );
  }
  if (c.tolerance !== false) checkTimestamp(c, read(headers, names.timestamp), c.tolerance);
  const deliveryId = read(headers, names.deliveryId);
  if (deliveryId === undefined && c.dedupe && c.dedupeKey === 'deliveryId') {
    throw new WebhookVerificationError(
      'missing_header',
      `The delivery has no ${names.prefix}Delivery-ID header, which dedupe needs to recognise repeats. The gateway sends it on every delivery; to dedupe on the event's own identity instead, set dedupeKey: 'event'.`,
      { header: `${names.prefix}Delivery-ID` },
    );
  }
  return { deliveryId, event: read(headers, names.event), deviceId };
}

function checkTimestamp(c: CompiledVerifier, value: string | undefined, tolerance: number): void {
  const header = `${c.names.prefix}Timestamp`;
  if (value === undefined) {
    throw new WebhookVerificationError(
      'missing_header',
      `The delivery has no ${header} header, so it can't be checked for replay. The gateway sends it on every delivery; pass tolerance: false only if yours does not.`,
      { header },
    );
  }
  if (!DIGITS.test(value)) {
    throw new WebhookVerificationError('invalid_header', `The ${header} header must be Unix seconds as digits.`, {
      header,
    });
  }
  const skew = Number(value) - c.clock.now() / 1000;
  if (skew < -tolerance) {
    throw new WebhookVerificationError(
      'stale_timestamp',
      `The ${header} header is ${Math.round(-skew)} s old, more than the tolerance of ${tolerance} s: a replayed delivery, or this server's clock is wrong (check NTP, or widen tolerance).`,
      { header },
    );
  }
  if (skew > tolerance) {
    throw new WebhookVerificationError(
      'future_timestamp',
      `The ${header} header is ${Math.round(skew)} s in the future, more than the tolerance of ${tolerance} s: this server's clock is behind (check NTP, or widen tolerance).`,
      { header },
    );
  }
}

/** JSON, schema, and agreement of the event/device headers with the body. */
function checkBody(c: CompiledVerifier, headers: DeliveryHeaders, text: string): ParsedWebhookEvent {
  const event = parseEventText(text);
  if (headers.event !== undefined && headers.event !== event.event) {
    throw new WebhookVerificationError(
      'event_mismatch',
      `The ${c.names.prefix}Event header names a different event than the body's "event" field; the delivery was altered or mis-assembled.`,
      { header: `${c.names.prefix}Event` },
    );
  }
  if (headers.deviceId !== undefined && headers.deviceId !== event.device_id) {
    throw new WebhookVerificationError(
      'event_mismatch',
      `The ${c.names.prefix}Device-ID header names a different device than the body's "device_id" field; the delivery was altered or mis-assembled.`,
      { header: `${c.names.prefix}Device-ID` },
    );
  }
  return event;
}

function duplicateError(deliveryId: string | undefined): WebhookVerificationError {
  return new WebhookVerificationError(
    'duplicate',
    'This delivery was already received; acknowledge it with HTTP 200 and do not handle it again.',
    deliveryId === undefined ? {} : { deliveryId },
  );
}

function isRequest(input: unknown): input is Request {
  // Duck-typed: Request classes differ between realms and polyfills, so instanceof is unreliable.
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as Request).arrayBuffer === 'function' &&
    typeof (input as Request).headers?.get === 'function'
  );
}

/**
 * Verifies a delivery and returns its typed event: the secret (constant time, any configured candidate), the
 * timestamp window, the body size, JSON, schema, and that the event/device headers agree with the body.
 * To recognise repeated deliveries, use one {@link createWebhookVerifier} with `dedupe` instead: it keeps the ids.
 *
 * @throws {WebhookVerificationError} with a `code` and the HTTP `status` to answer.
 * @example
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verifyWebhook(request, { secret: process.env.WEBHOOK_SECRET! });
 *     if (event.known && event.event === 'message.received') await saveMessage(event.data);
 *     return Response.json({ status: 'success' });
 *   } catch (err) {
 *     if (!(err instanceof WebhookVerificationError)) throw err;
 *     return Response.json(err.code === 'duplicate' ? { status: 'success' } : err.toJSON(), { status: err.status });
 *   }
 * }
 */
export function verifyWebhook(
  input: Request | WebhookDeliveryInput,
  options: VerifyWebhookOptions,
): Promise<ParsedWebhookEvent> {
  try {
    return verifierOfCall(options, 'verifyWebhook').verify(input);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * {@link verifyWebhook} for a body already in hand (string or bytes), without a promise.
 */
export function verifyWebhookSync(input: WebhookDeliveryInput, options: VerifyWebhookOptions): ParsedWebhookEvent {
  return verifierOfCall(options, 'verifyWebhookSync').verifySync(input);
}

/**
 * Like {@link verifyWebhook}, but reports a repeated delivery as `duplicate: true` instead of throwing, and returns
 * the delivery id, e.g. to `dedupe.delete(id)` when your processing fails and you want the gateway's retry to run.
 */
export function verifyWebhookDelivery(
  input: Request | WebhookDeliveryInput,
  options: VerifyWebhookOptions,
): Promise<VerifiedDelivery> {
  try {
    return verifierOfCall(options, 'verifyWebhookDelivery').verifyDelivery(input);
  } catch (err) {
    return Promise.reject(err);
  }
}
