/**
 * The mock's own light request shape. The standalone server builds it straight from `node:http` without a Web
 * `Request` (that conversion alone costs ~65% of throughput, see shared/notes/measurements.md); the msw and `fetch`
 * edges build it from a `Request`.
 */
export interface MockRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** URL path, without query, e.g. `/api/domain/3/update`. */
  path: string;
  /** Parsed query string. */
  query: URLSearchParams;
  /** Request headers with lower-case names. */
  headers: Record<string, string | undefined>;
  /** The raw body as text, or undefined when there was none. */
  body: string | undefined;
  /** The origin the request was addressed to (e.g. `http://127.0.0.1:4010`), for absolute links in answers. */
  origin: string;
}

/** The mock's own light response shape; the edges turn it into a Web `Response` or write it to `node:http`. */
export interface MockResponse {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Record<string, string>;
  /** Body: text (JSON usually) or bytes (PNG images). */
  body: string | Uint8Array;
  /** Set when an armed fault changed this answer (mock/faults): the rule, and how the adapter must send it. */
  fault?: InjectedFault;
}

/**
 * How a fault rule changed an answer. The backend decides; a `wire` form is one only the adapter can play (it owns the
 * connection), so the backend hands it over as this description and stays free of `node:*`.
 */
export interface InjectedFault {
  /** The rule's id, e.g. `f3`. */
  rule: string;
  /** The rule's own name, when it was given one. */
  name?: string;
  /** The fault's kind, e.g. `rate-limited` or `reset`. */
  kind: string;
  /** How the answer goes on the wire, when not as an ordinary answer. */
  wire?: WireForm;
}

/**
 * An answer the adapter plays on the connection: `hang` sends nothing until the client gives up; `reset` drops the
 * connection before any byte, `reset-after-headers` once the status line and headers are out; `cut-body` sends the
 * headers (with the whole body's length) and the first `bytes` of the body, then drops it; `trickle` sends the body
 * `chunkBytes` at a time, `intervalMs` apart on the backend's clock.
 */
export type WireForm =
  | { form: 'hang' }
  | { form: 'reset' }
  | { form: 'reset-after-headers' }
  | { form: 'cut-body'; bytes: number }
  | { form: 'trickle'; chunkBytes: number; intervalMs: number };
