// The inspector over node:http: the page at `GET /` and the live feed at `GET /__mock/events` (Server-Sent Events).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { secretsEqual } from '../../src/shared/constant-time.js';
import type { BackendCore } from '../backend.js';
import { INSPECTOR_EVENTS_OPERATION, INSPECTOR_PAGE_OPERATION } from '../control/control-operations.js';
import { InspectorFeed, type InspectorFeedOptions } from './inspector-feed.js';
import { inspectorPage } from './inspector-page.js';

/** Where the live feed is served (its row in the control API's declarations). */
export const EVENTS_PATH = INSPECTOR_EVENTS_OPERATION.path;
const PAGE_PATH = INSPECTOR_PAGE_OPERATION.path;

/** The inspector's part of the standalone server. */
export interface InspectorServer {
  /** Answers `GET /` and `GET /__mock/events`; false for any other request (the backend answers it). */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  /** A request was answered: what it changed goes out with the next update. */
  touch(): void;
  /** Ends every feed, so the server can close. */
  close(): void;
  /** The feed, for tests. */
  readonly feed: InspectorFeed;
}

const UNAUTHORIZED = JSON.stringify({
  error: 'unauthorized',
  message:
    'GET /__mock/events needs "Authorization: Bearer <control token>" (the token `linkgate mock` prints; EventSource cannot send it, so read the stream with fetch, as the inspector page does, or curl -N -H).',
});

/** Serves the inspector of `backend`: the page (no data in it) and the token-protected feed. */
export function createInspectorServer(backend: BackendCore, options?: InspectorFeedOptions): InspectorServer {
  const feed = new InspectorFeed(backend, options);
  const open = new Set<ServerResponse>();
  return {
    feed,
    handle(req, res, path) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      if (path === PAGE_PATH) {
        const body = inspectorPage();
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
          // Everything is inline; nothing may load from elsewhere, and the token in the fragment is never sent on.
          'content-security-policy':
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
          'referrer-policy': 'no-referrer',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        return true;
      }
      if (path !== EVENTS_PATH) return false;
      if (!secretsEqual(req.headers.authorization ?? '', `Bearer ${backend.gateway.controlToken}`)) {
        res.writeHead(401, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(UNAUTHORIZED);
        return true;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
        'x-accel-buffering': 'no',
      });
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      req.socket.setNoDelay(true);
      open.add(res);
      const connection = feed.connect({ write: (bytes) => res.write(bytes) });
      res.on('drain', () => connection.drained());
      res.once('close', () => {
        open.delete(res);
        connection.close();
      });
      return true;
    },
    touch: () => feed.touch(),
    close() {
      feed.close();
      for (const res of open) res.end();
      open.clear();
    },
  };
}
