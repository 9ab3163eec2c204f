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
}
