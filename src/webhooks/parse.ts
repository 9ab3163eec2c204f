import type * as z from 'zod/mini';
import {
  EventEnvelope as EnvelopeSchema,
  EVENT_SCHEMAS,
  type EventEnvelope,
  type EventName,
  type WebhookEvent,
} from '../schemas/events.js';
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

/** One of the schemas a delivery is parsed with: an event's, or the envelope of events outside the catalog. */
export type EventSchema = (typeof EVENT_SCHEMAS)[EventName] | typeof EnvelopeSchema;

/**
 * Makes an event schema ready to parse, with the same answers and issues: the schema itself (zod/mini's parser, every
 * runtime by default), or its compiled twin (the Node entry: src/webhooks/node-parsers.ts).
 */
export type SchemaPreparer = <S extends z.core.$ZodType>(schema: S) => S;

const asWritten: SchemaPreparer = (schema) => schema;
let prepare = asWritten;
// Each schema is prepared once, on its first delivery: a receiver that never sees an event never compiles its schema.
let prepared = new Map<EventSchema, EventSchema>();

/** Makes {@link validateEvent} parse with schemas `preparer` made ready (none: the schemas as written). */
export function useSchemaPreparer(preparer: SchemaPreparer = asWritten): void {
  prepare = preparer;
  prepared = new Map();
}

function ready(schema: EventSchema): EventSchema {
  let parser = prepared.get(schema);
  if (parser === undefined) {
    parser = prepare(schema);
    prepared.set(schema, parser);
  }
  return parser;
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
  return typeof json === 'string' ? parseEventText(json) : validateEvent(json);
}

/** Parses a body's JSON text and validates it. */
export function parseEventText(text: string): ParsedWebhookEvent {
  return validateEvent(parseJsonText(text));
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

/** Validates an already parsed body (see {@link parseWebhookEvent}) with zod: its data is zod's copy. */
export function validateEvent(value: unknown): ParsedWebhookEvent {
  const name = (value as { event?: unknown } | null)?.event;
  if (isKnownEventName(name)) {
    const result = ready(EVENT_SCHEMAS[name]).safeParse(value, ENGLISH);
    if (!result.success) throw invalidPayload(`a valid ${name} delivery`, result.error.issues);
    const event = result.data as KnownWebhookEvent;
    event.known = true;
    return event;
  }
  const result = ready(EnvelopeSchema).safeParse(value, ENGLISH);
  if (!result.success)
    throw invalidPayload('a webhook envelope { event, device_id, timestamp, data }', result.error.issues);
  const event = result.data as UnknownWebhookEvent;
  event.known = false;
  return event;
}

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
