/** CORS for the standalone server, so a browser app on another origin (e.g. a Vite dev server) can call it. */

/** Headers a browser may send; `X-Service-*` (the webhook headers) are matched by prefix. */
const ALLOWED_REQUEST_HEADERS = new Set(['authorization', 'content-type', 'accept', 'x-requested-with']);

/** Response headers a browser script may read: the rate-limit state and Retry-After. */
export const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/** Methods the APIs use. */
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** True when the request is a CORS preflight (OPTIONS with Access-Control-Request-Method). */
export function isPreflight(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): boolean {
  return method === 'OPTIONS' && headers['access-control-request-method'] !== undefined;
}

/**
 * The headers answering a preflight: any origin, the API's methods, and of the requested headers those the API
 * reads (Authorization, Content-Type, Accept, X-Service-*). A header outside that list is left out, so the browser
 * reports which one it was.
 */
export function preflightHeaders(requested: string | undefined): Record<string, string> {
  const allowed = (requested ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '' && isAllowedRequestHeader(h.toLowerCase()));
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': allowed.length > 0 ? allowed.join(', ') : 'Authorization, Content-Type',
    'access-control-max-age': '600',
    vary: 'Access-Control-Request-Headers',
    'content-length': '0',
  };
}

function isAllowedRequestHeader(name: string): boolean {
  return ALLOWED_REQUEST_HEADERS.has(name) || name.startsWith('x-service-');
}
