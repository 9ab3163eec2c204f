import type * as z from 'zod/mini';
import { EVENT_SCHEMAS, EventEnvelope, type EventName, type WebhookEvent } from '../schemas/events.js';
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

/** The parser of each event in the catalog, and of the envelope of events outside it. */
export interface EventParsers {
  events: { readonly [E in EventName]: (typeof EVENT_SCHEMAS)[E] };
  envelope: typeof EventEnvelope;
}

// The schemas themselves, as a browser or an edge runs them; the Node entry swaps in compiled twins (node-parsers.ts).
let parsers: EventParsers = { events: EVENT_SCHEMAS, envelope: EventEnvelope };

/** Makes {@link validateEvent} use `faster` parsers of the same schemas: same results, same issues. */
export function useEventParsers(faster: EventParsers): void {
  parsers = faster;
}

/** True when `name` is an event in the catalog. */
export function isKnownEventName(name: unknown): name is EventName {
  return typeof name === 'string' && hasOwn.call(EVENT_SCHEMAS, name);
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
  return validateEvent(typeof json === 'string' ? parseJsonText(json) : json);
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

/** Validates an already parsed body (see {@link parseWebhookEvent}). */
export function validateEvent(value: unknown): ParsedWebhookEvent {
  const name = (value as { event?: unknown } | null)?.event;
  if (isKnownEventName(name)) {
    const result = parsers.events[name].safeParse(value);
    if (!result.success) throw invalidPayload(`a valid ${name} delivery`, result.error.issues);
    const event = result.data as KnownWebhookEvent;
    event.known = true;
    return event;
  }
  const result = parsers.envelope.safeParse(value);
  if (!result.success)
    throw invalidPayload('a webhook envelope { event, device_id, timestamp, data }', result.error.issues);
  const event = result.data as UnknownWebhookEvent;
  event.known = false;
  return event;
}

function invalidPayload(what: string, zodIssues: readonly z.core.$ZodIssue[]): WebhookVerificationError {
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
