/**
 * `describeMock(name, fn, options?)`: runs one suite of mock tests twice, once through msw (`setupServer` + global
 * `fetch`) and once over HTTP against the standalone server, with a fresh backend for every test.
 *
 * @example
 * describeMock('GET /api/account', (ctx) => {
 *   it('answers the caller's account', async () => {
 *     const res = await ctx.api('GET', '/api/account');
 *     expect(res.json.data.username).toBe('admin');
 *   });
 * }, { seed: 'demo' });
 */

import {
  createMockBackend,
  type MockBackend,
  type MockBackendOptions,
  type MockServer,
  startMockServer,
} from 'linkgate/mock';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { MockRequest } from '../../../mock/http/types.js';

/** The origin tests address in msw mode; msw answers it, so it never needs to resolve. */
export const MSW_BASE_URL = 'https://api.linkgate.test';

/** Options of one {@link MockTestContext.api} call. */
export interface ApiOptions {
  /** API key sent as `Authorization: Bearer <key>`; `null` sends no Authorization. @default the backend's admin key */
  key?: string | null;
  /** A value sent as JSON (with `Content-Type: application/json`). */
  body?: unknown;
  /** A body sent exactly as given (with `Content-Type: application/json` unless `headers` says otherwise). */
  rawBody?: string;
  /** Extra request headers; they override the ones above. */
  headers?: Record<string, string>;
  /** Query parameters appended to the path; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
}

/** The answer of one {@link MockTestContext.api} call. */
export interface ApiResult {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the answers they check.
  json: any;
  /** The body as text. */
  text: string;
  /** The body as bytes (for the PNG answers). */
  bytes: Uint8Array;
}

/** What a suite registered with {@link describeMock} works with; `backend` is replaced before every test. */
export interface MockTestContext {
  /** `msw` (in-process interception) or `http` (the standalone server over loopback). */
  readonly mode: 'msw' | 'http';
  /** This test's fresh backend (arrange state through `backend.store`, move time through the clock you passed). */
  backend: MockBackend;
  /** Base URL the requests go to (no trailing slash). */
  baseUrl: string;
  /** The msw server in msw mode (for `server.use(...)` overrides), undefined in http mode. */
  msw: SetupServer | undefined;
  /** Sends a request to the mock through the mode's transport. */
  api(method: string, path: string, options?: ApiOptions): Promise<ApiResult>;
}

/** Backend options of a suite, or a function making them (for a fresh ManualClock per test). */
export type MockSuiteOptions = MockBackendOptions | (() => MockBackendOptions);

/**
 * Registers `${name} (msw)` and `${name} (http)`. `fn` declares the tests (`it(...)`) and receives the context; a
 * fresh backend is created from `options` before each test.
 */
export function describeMock(name: string, fn: (ctx: MockTestContext) => void, options?: MockSuiteOptions): void {
  describeMsw(name, fn, options);
  describeHttp(name, fn, options);
}

function backendOptions(options: MockSuiteOptions | undefined): MockBackendOptions {
  return typeof options === 'function' ? options() : { ...options };
}

function describeMsw(name: string, fn: (ctx: MockTestContext) => void, options: MockSuiteOptions | undefined): void {
  describe(`${name} (msw)`, () => {
    const server = setupServer();
    const ctx = context('msw', server);
    beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
    afterAll(() => server.close());
    beforeEach(() => {
      const opts = backendOptions(options);
      ctx.backend = createMockBackend(opts);
      ctx.baseUrl = opts.baseUrl?.replace(/\/+$/, '') ?? MSW_BASE_URL;
      // Drops the previous test's backend and any server.use(...) overrides it added.
      server.resetHandlers(...ctx.backend.handlers);
    });
    fn(ctx);
  });
}

function describeHttp(name: string, fn: (ctx: MockTestContext) => void, options: MockSuiteOptions | undefined): void {
  describe(`${name} (http)`, () => {
    const ctx = context('http', undefined);
    let server: MockServer<{ handle(req: MockRequest): ReturnType<MockBackend['handle']> }>;
    // One server per suite; it forwards to whichever backend the current test has.
    beforeAll(async () => {
      server = await startMockServer({ port: 0, backend: { handle: (req) => ctx.backend.handle(req) } });
      ctx.baseUrl = server.url;
    });
    afterAll(() => server.close());
    beforeEach(() => {
      const { baseUrl: _mswOnly, ...opts } = backendOptions(options);
      ctx.backend = createMockBackend(opts);
    });
    fn(ctx);
  });
}

function context(mode: 'msw' | 'http', msw: SetupServer | undefined): MockTestContext {
  const ctx: MockTestContext = {
    mode,
    msw,
    backend: undefined as unknown as MockBackend,
    baseUrl: '',
    api: (method, path, options = {}) => callApi(ctx, method, path, options),
  };
  return ctx;
}

async function callApi(ctx: MockTestContext, method: string, path: string, options: ApiOptions): Promise<ApiResult> {
  const url = new URL(`${ctx.baseUrl}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? ctx.backend.adminKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  else if (options.rawBody !== undefined) body = options.rawBody;
  if (body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);
  const res = await fetch(url, { method, headers, body });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text, bytes };
}
