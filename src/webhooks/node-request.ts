import type { NodeHeaders } from './header-reader.js';

/**
 * The parts of Node's `IncomingMessage` (or an Express request) the adapter uses, stated structurally so this entry
 * imports nothing from `node:*`.
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  /** HTTP method. */
  method?: string | undefined;
  /** Request path and query. */
  url?: string | undefined;
  /** Lower-case header names to string or string[] values. */
  headers: NodeHeaders;
  /** A raw body some frameworks keep (a Buffer or string). */
  rawBody?: unknown;
  /** The body a framework already read: a Buffer/string is used; a parsed object is refused with directions. */
  body?: unknown;
  /** True once the stream has been read to its end (by a body parser, for example). */
  readableEnded?: boolean;
}
