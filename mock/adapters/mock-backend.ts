import type { HttpHandler } from 'msw';
import type { Clock } from '../../src/shared/clock.js';
import { type BackendCore, createBackendCore, type MockBackendOptions } from '../backend.js';
import { mswHandlers, parseBaseUrl } from './msw.js';
import { answerWebRequest } from './web.js';

/** A stateful reference backend with its msw handlers and a `fetch` that answers from it directly. */
export interface MockBackend<C extends Clock = Clock> extends BackendCore<C> {
  /**
   * msw request handlers answering the mock's own paths (the documented management and messaging paths, QR images,
   * `/openapi.json`, `/__mock/...`) on any origin, or only under `baseUrl` when it was given; every other request
   * (your app's own `/api/...` routes) passes through. Pass them to `setupServer(...)` (msw/node) or `setupWorker(...)`
   * (msw/browser). Needs msw installed (`npm install -D msw`); reading it without msw throws an error that says so.
   */
  readonly handlers: HttpHandler[];
  /**
   * Answers a request from the backend without any network or msw: a drop-in `fetch` for clients that accept one
   * (`ky.create({ fetch: backend.fetch })`). Relative URLs resolve against `baseUrl` (or `http://localhost`).
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
}

/** A network error (a reset fault) as fetch gives it: a rejected TypeError, never a Response of type "error". */
function asFetchWould(response: Response): Response {
  if (response.type !== 'error') return response;
  throw new TypeError('fetch failed', { cause: new Error('connection reset by the linkgate mock (an armed fault)') });
}

/**
 * Creates an in-memory, stateful reference backend of the management API and the messaging gateway.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * const backend = createMockBackend({ seed: 'demo' });
 * const server = setupServer(...backend.handlers);
 * server.listen();
 * const res = await fetch('https://api.example.com/api/account', {
 *   headers: { Authorization: `Bearer ${backend.adminKey}` },
 * });
 */
export function createMockBackend<C extends Clock = Clock>(options: MockBackendOptions<C> = {}): MockBackend<C> {
  // Check baseUrl before building anything, so a typo fails here and not on the first request.
  const base = options.baseUrl === undefined ? undefined : parseBaseUrl(options.baseUrl);
  const core = createBackendCore(options);
  const prefix = base?.prefix ?? '';
  const resolveBase = base ? `${base.origin}${prefix}` : 'http://localhost';
  let handlers: HttpHandler[] | undefined;
  const fetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const target = typeof input === 'string' && input.startsWith('/') ? `${resolveBase}${input}` : input;
    const request = target instanceof Request && init === undefined ? target : new Request(target, init);
    return answerWebRequest(core, request, prefix, 'reject').then(asFetchWould);
  };
  // Extend the core itself, so getters and methods that `reset()` relies on keep working on one object. The handlers
  // are built on first use, so a backend used only through `fetch` needs no msw.
  return Object.defineProperties(Object.assign(core, { fetch }), {
    handlers: { enumerable: true, get: () => (handlers ??= mswHandlers(core, options.baseUrl)) },
  }) as MockBackend<C>;
}
