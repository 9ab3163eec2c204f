import { type HttpHandler, http } from 'msw';
import { OPENAPI_PATH } from '../openapi.js';
import { answerWebRequest, type MockRequestHandler } from './web.js';

/**
 * Paths the msw handlers answer: `/api/...` (management, messaging, QR images), the `/__mock/` control API and the
 * OpenAPI document. Other paths pass through to the network (or to the user's own handlers).
 */
export const MOCK_SERVED_PREFIXES: readonly string[] = ['/api/', '/__mock/', OPENAPI_PATH];

/**
 * The msw handlers of a backend: ONE catch-all handler that hands matching requests to `backend.handle`. One handler
 * keeps msw's linear scan short, and handlers a test adds with `server.use(...)` are prepended, so they still win.
 *
 * @param baseUrl - when given (e.g. `https://api.example.com` or `https://example.com/v3`), only requests under it
 *   are answered and its path prefix is stripped before routing; otherwise the mock's paths on any origin.
 */
export function mswHandlers(backend: MockRequestHandler, baseUrl?: string): HttpHandler[] {
  if (baseUrl === undefined) {
    return [
      http.all(
        ({ request }) => servesPath(new URL(request.url).pathname),
        ({ request }) => answerWebRequest(backend, request),
      ),
    ];
  }
  const { origin, prefix } = parseBaseUrl(baseUrl);
  return [
    http.all(
      ({ request }) => {
        const url = new URL(request.url);
        return (
          url.origin === origin && url.pathname.startsWith(prefix) && servesPath(url.pathname.slice(prefix.length))
        );
      },
      ({ request }) => answerWebRequest(backend, request, prefix),
    ),
  ];
}

function servesPath(path: string): boolean {
  for (const p of MOCK_SERVED_PREFIXES) {
    if (path.startsWith(p) || (p.endsWith('/') && path === p.slice(0, -1))) return true;
  }
  return false;
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
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}
