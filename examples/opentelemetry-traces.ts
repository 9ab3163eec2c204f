/**
 * OpenTelemetry spans for every linkgate call, without linkgate depending on OpenTelemetry: the client publishes each
 * call on the `diagnostics_channel` tracing channels `linkgate:request` and `linkgate:attempt`, and these few lines
 * turn them into a span per call (named after the operation, e.g. `domains.update`) with a child span per HTTP attempt
 * (`PUT /api/domain/{id}/update`), carrying status codes, retries and rate-limit waits. Only `@opentelemetry/api` is
 * used; in an app with the OpenTelemetry SDK set up (e.g. `@opentelemetry/sdk-node`), call `instrumentLinkgate()`
 * once at start-up and the spans go wherever the SDK exports them.
 *
 * Run against a server (e.g. `npm start` prints a key for the demo data):
 *   LINKGATE_BASE_URL=http://127.0.0.1:4010 LINKGATE_API_KEY=<key> node --import tsx examples/opentelemetry-traces.ts
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { pathToFileURL } from 'node:url';
import { context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { Linkgate, type LinkgateOptions, type LinkgateTypes } from 'linkgate';

type CallTrace = LinkgateTypes.RequestTrace;
type AttemptTrace = LinkgateTypes.AttemptTrace;

/**
 * Subscribes to linkgate's tracing channels and starts a span per call and per attempt on `tracer`. A call's span is
 * a child of the span active where the call was made; its attempts' spans are its children. Returns the function that
 * unsubscribes again.
 */
export function instrumentLinkgate(tracer: Tracer = trace.getTracer('linkgate')): () => void {
  // The trace objects are the same at every event of one call or attempt, so they key their spans.
  const spans = new WeakMap<object, Span>();
  const finish = (span: Span | undefined, status: number | undefined, error: unknown) => {
    if (!span) return;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error) {
      const { name, message } = error as Error;
      span.recordException(error as Error);
      span.setAttribute('error.type', name ?? 'Error');
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.end();
  };
  const nothing = () => {};

  const calls = tracingChannel<unknown, CallTrace>('linkgate:request');
  const onCall = {
    start(call: CallTrace) {
      const attributes = {
        'linkgate.operation': call.operation,
        'http.request.method': call.method,
        'url.template': call.route,
        'server.address': new URL(call.baseUrl).hostname,
      };
      spans.set(call, tracer.startSpan(call.operation, { kind: SpanKind.INTERNAL, attributes }));
    },
    // A call settles once: its span ends at asyncEnd, with the error (if any) the call rejected with.
    asyncEnd(call: CallTrace) {
      const span = spans.get(call);
      span?.setAttributes({ 'linkgate.attempts': call.attempts, 'linkgate.rate_limit.wait_ms': call.rateLimitWait });
      finish(span, call.status, call.error);
    },
    end: nothing,
    asyncStart: nothing,
    error: nothing,
  };

  const attempts = tracingChannel<unknown, AttemptTrace>('linkgate:attempt');
  const onAttempt = {
    start(attempt: AttemptTrace) {
      const { call } = attempt;
      const parent = spans.get(call);
      const where = parent ? trace.setSpan(context.active(), parent) : context.active();
      const attributes = {
        'http.request.method': call.method,
        'url.template': call.route,
        'server.address': new URL(call.baseUrl).hostname,
        'linkgate.rate_limit.wait_ms': attempt.rateLimitWait,
        // OpenTelemetry's HTTP conventions count retries of a request as its resends.
        ...(attempt.attempt > 1 ? { 'http.request.resend_count': attempt.attempt - 1 } : {}),
      };
      spans.set(
        attempt,
        tracer.startSpan(`${call.method} ${call.route}`, { kind: SpanKind.CLIENT, attributes }, where),
      );
    },
    asyncEnd(attempt: AttemptTrace) {
      finish(spans.get(attempt), attempt.status, attempt.error);
    },
    end: nothing,
    asyncStart: nothing,
    error: nothing,
  };

  calls.subscribe(onCall);
  attempts.subscribe(onAttempt);
  return () => {
    calls.unsubscribe(onCall);
    attempts.unsubscribe(onAttempt);
  };
}

/** Options of {@link main}: the client's (apiKey and baseUrl default to the environment), the tracer, where lines go. */
export interface OpenTelemetryTracesOptions extends LinkgateOptions {
  /** Where spans start. @default the global tracer provider's `linkgate` tracer */
  tracer?: Tracer;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** Instruments linkgate, makes two calls (each becomes a span with its attempts), then unsubscribes. */
export async function main(options: OpenTelemetryTracesOptions = {}): Promise<void> {
  const { tracer, log = console.log, ...clientOptions } = options;
  const stop = instrumentLinkgate(tracer);
  try {
    const client = new Linkgate(clientOptions);
    const account = await client.account.get();
    const page = await client.domains.list({ limit: 5 });
    log(`account ${account.username}: ${page.total} domains (two spans: account.get and domains.list)`);
  } finally {
    stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
