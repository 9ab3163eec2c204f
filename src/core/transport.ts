// One attempt's exchange with the server: the Request built from the call, `beforeRequest` hooks run on it, then
// `fetch`. linkgate's own (not ky, which was 8 KB of every app for this much: docs/benchmarks.md, README Decisions);
// it builds the Request and runs the hooks as ky 2 did, so hooks see the same Request.

const tagOf = (value: unknown) => Object.prototype.toString.call(value);

/** A `beforeRequest` hook as the transport runs it: a Request it returns is sent, a Response is the answer. */
export type TransportHook = (state: { request: Request }) => unknown;

/** What one attempt sends. */
export interface Exchange {
  method: string;
  /** Merged once per client: authorization, content type, the client's own. */
  headers: Record<string, string>;
  /** This call's extra headers, set over the client's (case-insensitively, as `Headers` does). */
  extra?: Record<string, string>;
  /** Sent as JSON when defined. */
  json?: unknown;
  /** Run in order on the Request before it is sent. */
  hooks?: readonly TransportHook[];
  /** The fetch to send with; it is given the Request and nothing else. */
  fetch: (request: Request) => Promise<Response>;
}

/** Sends one request and returns the answer, whatever its status; redirects are the caller's (`redirect: 'manual'`). */
export async function exchange(url: string, spec: Exchange): Promise<Response> {
  const headers = new Headers(spec.headers);
  if (spec.extra) for (const [name, value] of new Headers(spec.extra)) headers.set(name, value);
  if (spec.json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  let request = new Request(url, {
    method: spec.method,
    headers,
    body: spec.json === undefined ? undefined : JSON.stringify(spec.json),
    redirect: 'manual',
  });
  for (const hook of spec.hooks ?? []) {
    const value = await hook({ request });
    if (isRequest(value)) request = value;
    else if (isA(value, Response)) return value as Response;
  }
  return spec.fetch(request);
}

/** `instanceof`, or the same class from another realm (a test runner's, a polyfill's). */
function isA(value: unknown, type: typeof Request | typeof Response): boolean {
  return value instanceof type || tagOf(value) === `[object ${type.name}]`;
}

/** Whether a hook's value is a Request the transport sends in place of its own (any realm's). */
export const isRequest = (value: unknown): value is Request => isA(value, Request);

/** The messages runtimes give a TypeError when the network failed (as ky 2 and `is-network-error` tell them). */
const NETWORK_MESSAGES = new Set([
  'network error',
  'NetworkError when attempting to fetch resource.',
  'The Internet connection appears to be offline.',
  'Network request failed',
  'fetch failed',
  'terminated',
  ' A network error occurred.',
  'Network connection lost',
  'Failed to fetch',
]);

/** Whether `fetch` threw because the network failed, rather than because a custom fetch or a hook threw. */
export function isNetworkError(error: unknown): boolean {
  if (tagOf(error) !== '[object Error]') return false;
  const { name, message, stack } = error as Error;
  if (name !== 'TypeError' || typeof message !== 'string') return false;
  if (message === 'Load failed' || /^Load failed \(.*\)$/.test(message)) {
    return stack === undefined || '__sentry_captured__' in (error as object);
  }
  return (
    NETWORK_MESSAGES.has(message) ||
    message.startsWith('error sending request for url') ||
    /^Failed to fetch \(.*\)$/.test(message)
  );
}
