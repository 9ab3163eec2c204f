// examples/opentelemetry-traces.ts against the reference mock, with an in-memory tracer written here on the
// OpenTelemetry API package alone (no SDK): the spans it records are what an exporter would receive.
import {
  type Attributes,
  type Context,
  context,
  type Span,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { NotFoundError } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentLinkgate, main } from '../../examples/opentelemetry-traces.js';
import { BASE_URL, rejectionOf, settleWithIo, useMockApi } from './support/harness.js';

let ids = 0;

/** A span that keeps what it was told. */
class RecordedSpan implements Span {
  readonly attributes: Attributes;
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  readonly exceptions: unknown[] = [];
  ended = false;
  readonly #context: SpanContext;

  constructor(
    public name: string,
    readonly kind: SpanKind | undefined,
    readonly parent: RecordedSpan | undefined,
    attributes: Attributes | undefined,
  ) {
    this.attributes = { ...attributes };
    const spanId = (++ids).toString(16).padStart(16, '0');
    this.#context = { traceId: parent?.spanContext().traceId ?? spanId.padStart(32, '0'), spanId, traceFlags: 1 };
  }
  spanContext(): SpanContext {
    return this.#context;
  }
  setAttribute(key: string, value: Attributes[string]): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(exception: unknown): void {
    this.exceptions.push(exception);
  }
}

/** A tracer that records its spans in memory, each with the parent the context names. */
class MemoryTracer implements Tracer {
  readonly spans: RecordedSpan[] = [];
  startSpan(name: string, options: SpanOptions = {}, where: Context = context.active()): Span {
    const parent = trace.getSpan(where);
    const span = new RecordedSpan(
      name,
      options.kind,
      parent instanceof RecordedSpan ? parent : undefined,
      options.attributes,
    );
    this.spans.push(span);
    return span;
  }
  startActiveSpan(): never {
    throw new Error('not used by the example');
  }
}

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()?.();
});

function instrumented(): MemoryTracer {
  const tracer = new MemoryTracer();
  stops.push(instrumentLinkgate(tracer));
  return tracer;
}

describe('examples/opentelemetry-traces.ts', () => {
  const ctx = useMockApi(() => ({ rateLimit: { limit: 2, windowMs: 10_000 } }));

  it('records a call that retried and waited for the rate window as a span with a child span per attempt', async () => {
    const client = ctx.client({ random: () => 0 });
    await client.account.get();
    // A proxy's 503 spends the client's last request of the window; the retry waits for the window to reset.
    let proxied = 0;
    ctx.server.use(
      http.get(`${BASE_URL}/api/account`, () => (++proxied === 1 ? HttpResponse.json({}, { status: 503 }) : undefined)),
    );
    const tracer = instrumented();
    await settleWithIo(ctx.clock, Promise.resolve(client.account.get()));

    const [call, first, retry, ...rest] = tracer.spans;
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ name: 'account.get', kind: SpanKind.INTERNAL, parent: undefined, ended: true });
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    expect(call?.attributes).toMatchObject({
      'linkgate.operation': 'account.get',
      'http.request.method': 'GET',
      'url.template': '/api/account',
      'server.address': 'linkgate.test',
      'http.response.status_code': 200,
      'linkgate.attempts': 2,
    });
    expect(call?.attributes['linkgate.rate_limit.wait_ms']).toBeGreaterThan(5000);

    expect(first).toMatchObject({ name: 'GET /api/account', kind: SpanKind.CLIENT, parent: call, ended: true });
    expect(first?.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': 'APIError' });
    expect(first?.attributes['http.request.resend_count']).toBeUndefined();
    expect(first?.status.code).toBe(SpanStatusCode.ERROR);

    expect(retry).toMatchObject({ name: 'GET /api/account', kind: SpanKind.CLIENT, parent: call, ended: true });
    expect(retry?.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    expect(retry?.attributes['linkgate.rate_limit.wait_ms']).toBe(call?.attributes['linkgate.rate_limit.wait_ms']);
    expect(retry?.status.code).toBe(SpanStatusCode.UNSET);
    expect(call?.spanContext().traceId).toBe(retry?.spanContext().traceId);
  });

  it('marks the span of a failed call as an error with the exception recorded', async () => {
    const tracer = instrumented();
    const error = await rejectionOf(ctx.client().domains.delete(12345));
    expect(error).toBeInstanceOf(NotFoundError);
    const call = tracer.spans.find((s) => s.name === 'domains.delete');
    expect(call?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(call?.attributes['error.type']).toBe('NotFoundError');
    expect(call?.exceptions).toEqual([error]);
    expect(call?.attributes['url.template']).toBe('/api/domain/{id}/delete');
  });

  it('starts no span once unsubscribed', async () => {
    const tracer = new MemoryTracer();
    instrumentLinkgate(tracer)();
    await ctx.client().account.get();
    expect(tracer.spans).toEqual([]);
  });

  it('main() makes two calls, each a span with its attempt', async () => {
    const tracer = new MemoryTracer();
    const lines: string[] = [];
    await main({
      apiKey: ctx.backend.adminKey,
      baseUrl: BASE_URL,
      clock: ctx.clock,
      tracer,
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual(['account admin: 0 domains (two spans: account.get and domains.list)']);
    expect(tracer.spans.map((s) => `${s.name} <- ${s.parent?.name ?? 'root'}`)).toEqual([
      'account.get <- root',
      'GET /api/account <- account.get',
      'domains.list <- root',
      'GET /api/domains <- domains.list',
    ]);
  });
});
