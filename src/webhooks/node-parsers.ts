// Node's parsers: the event schemas compiled ahead of time. zod/mini does not compile object parsers the way classic
// zod does; zod's `compile` (shared by both, from zod/v4/core) makes them about twice as fast on valid input and
// falls back to the regular parser, with the same issues, on invalid input. Only the Node entry loads this file, and
// with it zod: bundles for browsers and edges validate with the generated shape table instead (parse.ts's
// SHAPE_PARSERS), which gives the same results (docs/benchmarks.md, "The receiver on two builds").
import { compile, config } from 'zod/mini';
import { EVENT_SCHEMAS, EventEnvelope } from '../schemas/events.js';
import { type EventParsers, useEventParsers } from './parse.js';

// Compiling uses `new Function`; where that is forbidden (`--jitless`, CSP) compile hands the schema back unchanged.
const fast = <S extends Parameters<typeof compile>[0]>(schema: S): S => (config().jitless ? schema : compile(schema));

/** Compiles the event schemas and makes `parseWebhookEvent` and the verifiers use them. */
export function useCompiledEventParsers(): void {
  const compiled: EventParsers = {
    events: {
      'message.received': fast(EVENT_SCHEMAS['message.received']),
      'message.ack': fast(EVENT_SCHEMAS['message.ack']),
      'message.sent': fast(EVENT_SCHEMAS['message.sent']),
      'device.status': fast(EVENT_SCHEMAS['device.status']),
      'device.qr': fast(EVENT_SCHEMAS['device.qr']),
    },
    envelope: fast(EventEnvelope),
  };
  useEventParsers(compiled);
}
