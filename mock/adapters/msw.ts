import type { HttpHandler } from 'msw';
import { withoutTrailingSlashes } from '../../src/shared/trailing-slashes.js';
import { CONTROL_PREFIX } from '../control/control-routes.js';
import type { MockRouter } from '../http/router.js';
import type { MockResponse } from '../http/types.js';
import { INVALID_KEY_MESSAGE } from '../management/auth.js';
import { mswModule } from './msw-module.js';
import { answerWebRequest, type MockRequestHandler, toMockRequest, webAnswer } from './web.js';

/** The header on every answer of handlers without `baseUrl`: who answered, and how to keep it off other origins. */
export const UNSCOPED_ANSWER_HEADER = 'x-linkgate-mock';
/** Its value. */
export const UNSCOPED_ANSWER_NOTE =
  "answered by the linkgate mock's msw handlers, which without baseUrl answer the mock's paths on every origin; pass createMockBackend({ baseUrl }) to answer only your API's";

/** What the msw handlers need of a backend: its answers, and its route table to decide which requests are its own. */
export interface MswBackend extends MockRequestHandler {
  /** The router whose route table says which paths the mock serves. */
  readonly router: Pick<MockRouter, 'serves'>;
}

/**
 * The msw handlers of a backend: ONE catch-all handler that hands the mock's own requests to `backend.handle`. One
 * handler keeps msw's linear scan short, and handlers a test adds with `server.use(...)` are prepended, so they still
 * win. The mock's own requests are the paths of its route table (the documented management and messaging paths, QR
 * images, `/openapi.json`) and everything under `/__mock/`; anything else (`/api/webhooks`, `/api/health` of the app
 * itself) passes through untouched, to the app's own handlers or the network, and msw's unhandled-request warning.
 *
 * @param baseUrl - when given (e.g. `https://api.example.com` or `https://example.com/v3`), only requests under it
 *   are answered and its path prefix is stripped before routing; otherwise the mock's paths on any origin.
 */
export function mswHandlers(backend: MswBackend, baseUrl?: string): HttpHandler[] {
  const { http } = mswModule();
  const serves = (path: string) => isControlPath(path) || backend.router.serves(path);
  if (baseUrl === undefined) {
    return [
      http.all(
        ({ request }) => serves(new URL(request.url).pathname),
        ({ request }) => answerUnscoped(backend, request),
      ),
    ];
  }
  const { origin, prefix } = parseBaseUrl(baseUrl);
  return [
    http.all(
      ({ request }) => {
        const url = new URL(request.url);
        return url.origin === origin && url.pathname.startsWith(prefix) && serves(url.pathname.slice(prefix.length));
      },
      ({ request }) => answerWebRequest(backend, request, prefix),
    ),
  ];
}

/**
 * Answers a request caught on any origin, saying in a header that the mock answered it; a refused key also says so in
 * its message, since an app's own route on the mock's path (`https://myapp.test/api/account`) lands here.
 */
async function answerUnscoped(backend: MswBackend, request: Request): Promise<Response> {
  const converted = await toMockRequest(request);
  const answer = 'refusal' in converted ? converted.refusal : await backend.handle(converted.request);
  const res = answer.status === 403 ? explainKeyRefusal(answer, request) : answer;
  return webAnswer(
    { ...res, headers: { ...res.headers, [UNSCOPED_ANSWER_HEADER]: UNSCOPED_ANSWER_NOTE } },
    request,
    backend,
  );
}

/** The management API's missing-or-unknown-key 403, its message followed by who answered and how to scope it. */
function explainKeyRefusal(answer: MockResponse, request: Request): MockResponse {
  if (typeof answer.body !== 'string' || !answer.body.includes(INVALID_KEY_MESSAGE)) return answer;
  const body = JSON.parse(answer.body) as { message?: unknown };
  if (body.message !== INVALID_KEY_MESSAGE) return answer;
  const url = new URL(request.url);
  body.message =
    `${INVALID_KEY_MESSAGE} (Answered by the linkgate mock: created without baseUrl, its msw handlers answer ` +
    `${url.pathname} on every origin, ${url.origin} included. If this is your app's own route, pass ` +
    "createMockBackend({ baseUrl: 'https://your-api.example' }) or register your handler before backend.handlers.)";
  return { ...answer, body: JSON.stringify(body) };
}

// The control API answers its whole prefix (unknown control paths get its own 401/404, which say what exists).
function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX) || path === CONTROL_PREFIX.slice(0, -1);
}

/** Splits a base URL into its origin and path prefix (no trailing slash), or says what is wrong with it. */
export function parseBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL such as "https://api.example.com"; got ${JSON.stringify(baseUrl)}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https; got ${JSON.stringify(url.protocol)}.`);
  }
  if (url.search || url.hash) {
    throw new TypeError(
      'baseUrl must not carry a query or fragment; pass only the origin and an optional path prefix.',
    );
  }
  return { origin: url.origin, prefix: withoutTrailingSlashes(url.pathname) };
}
