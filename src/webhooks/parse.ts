import type { EventEnvelope, EventName, WebhookEvent } from '../schemas/events.js';
import { ENVELOPE_SHAPE, EVENT_SHAPES } from './event-shapes.generated.js';
import { type EventValidation, type ObjectShape, validateParsedJson, validateShape } from './event-validation.js';
import { ENGLISH } from './issue-messages.js';
import { type WebhookPayloadIssue, WebhookVerificationError } from './webhook-errors.js';

/** An event from the catalog, validated against its schema; `known: true` tells it apart from an unknown one. */
export type KnownWebhookEvent = WebhookEvent & { known: true };

/**
 * An event the catalog does not list (the gateway added one after this release): its envelope is validated, its
 * `data` is kept as is. Receivers should acknowledge it and may ignore it.
 */
export type UnknownWebhookEvent = EventEnvelope & { known: false };

/** What {@link parseWebhookEvent} returns: check `known`, then switch on `event`. */
export type ParsedWebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What {@link validateEvent} asks of a parser: zod's `safeParse`, given the English messages. The event schemas
 * (src/schemas/events.ts) and the shape table's validators both answer it.
 */
export interface EventParser {
  safeParse(value: unknown, params: typeof ENGLISH): EventValidation;
  /**
   * `safeParse` of a value fresh from `JSON.parse` that the caller gives up, which may come back as the data itself
   * instead of a copy (the shape table's parsers: see validateParsedJson). Parsers without it get `safeParse`.
   */
  safeParseOwned?(value: unknown): EventValidation;
}

/** The parser of each event in the catalog, and of the envelope of events outside it. */
export interface EventParsers {
  events: { readonly [E in EventName]: EventParser };
  envelope: EventParser;
}

const byShape = (shape: ObjectShape): EventParser => ({
  safeParse: (value) => validateShape(shape, value),
  safeParseOwned: (value) => validateParsedJson(shape, value),
});

/**
 * The parsers every runtime runs: the shapes of the event schemas as a generated table, read without zod
 * (event-validation.ts), so the receiver loads no zod. Same results and issues as the schemas.
 */
export const SHAPE_PARSERS: EventParsers = {
  events: Object.fromEntries(
    Object.entries(EVENT_SHAPES).map(([name, shape]) => [name, byShape(shape)]),
  ) as EventParsers['events'],
  envelope: byShape(ENVELOPE_SHAPE),
};

// Tests swap in the zod schemas themselves, to hold the table's answers against theirs.
let parsers = SHAPE_PARSERS;

/**
 * Makes {@link validateEvent} use other parsers of the same schemas, e.g. the zod schemas (`SHAPE_PARSERS` again to
 * undo): same results, same issues.
 */
export function useEventParsers(others: EventParsers): void {
  parsers = others;
}

/** True when `name` is an event in the catalog. */
export function isKnownEventName(name: unknown): name is EventName {
  return typeof name === 'string' && hasOwn.call(EVENT_SHAPES, name);
}

/**
 * Validates a delivery body (parsed JSON, or the JSON text) against the envelope and the payload schema of its event.
 * Fields beyond the schema are kept. Unknown event names give an {@link UnknownWebhookEvent} instead of an error,
 * so a receiver survives the gateway adding events.
 *
 * @throws {WebhookVerificationError} `invalid_json` when given text that is not JSON; `invalid_payload` (with `issues`)
 * when the envelope or a known event's data breaks the schema.
 * @example
 * const event = parseWebhookEvent(await queue.pop());
 * if (event.known && event.event === 'message.received') console.log(event.data.text);
 */
export function parseWebhookEvent(json: unknown): ParsedWebhookEvent {
  return typeof json === 'string' ? parseEventText(json) : validateEvent(json);
}

/** Parses a body's JSON text and validates it; the objects JSON.parse made become the event's, uncopied if valid. */
export function parseEventText(text: string): ParsedWebhookEvent {
  return validateEvent(parseJsonText(text), true);
}

/** JSON.parse with an error that never quotes the body (the engine's message includes a slice of it). */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const hint =
      text === '[object Object]'
        ? ' It reads "[object Object]": an object was turned into a string; pass the raw request body instead.'
        : text.length === 0
          ? ' It is empty.'
          : '';
    throw new WebhookVerificationError(
      'invalid_json',
      `The body is not valid JSON.${hint} The gateway sends a JSON object; check that nothing rewrote the body on the way.`,
    );
  }
}

/**
 * Validates an already parsed body (see {@link parseWebhookEvent}).
 *
 * @param owned - `value` is fresh from `JSON.parse` and the caller gives it up: its objects may become the event's.
 */
export function validateEvent(value: unknown, owned = false): ParsedWebhookEvent {
  const name = (value as { event?: unknown } | null)?.event;
  if (isKnownEventName(name)) {
    const result = safeParse(parsers.events[name], value, owned);
    if (!result.success) throw invalidPayload(`a valid ${name} delivery`, result.error.issues);
    const event = result.data as KnownWebhookEvent;
    event.known = true;
    return event;
  }
  const result = safeParse(parsers.envelope, value, owned);
  if (!result.success)
    throw invalidPayload('a webhook envelope { event, device_id, timestamp, data }', result.error.issues);
  const event = result.data as UnknownWebhookEvent;
  event.known = false;
  return event;
}

const safeParse = (parser: EventParser, value: unknown, owned: boolean): EventValidation =>
  owned && parser.safeParseOwned ? parser.safeParseOwned(value) : parser.safeParse(value, ENGLISH);

function invalidPayload(what: string, zodIssues: readonly WebhookPayloadIssue[]): WebhookVerificationError {
  const issues: WebhookPayloadIssue[] = zodIssues.map((issue) => ({
    path: issue.path,
    message: issue.message,
    code: issue.code,
  }));
  const shown = issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(body)'}: ${i.message}`)
    .join('; ');
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  return new WebhookVerificationError('invalid_payload', `The body is not ${what}: ${shown}${more}.`, { issues });
}
