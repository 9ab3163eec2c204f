// A small management API that differs from the spec in known, planted ways (or fails as bad deployments do), on
// loopback, for the drift check's and the proxy's end-to-end tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the server misbehaves: planted field drift, values linkgate reads but the API documents otherwise
 * (`tolerated`, an admin's deployment: plans are read), or a whole-server failure.
 */
export type DriftMode = 'drift' | 'tolerated' | 'html-login' | 'huge' | 'slow';

/** The planted differences of mode `drift`, as the check must report them (operation, field). */
export const PLANTED = [
  // A field renamed: the table's field missing, the new one unknown.
  ['account.get', 'data.registered'],
  ['account.get', 'data.created_at'],
  // A number sent as a string where the spec has none.
  ['domains.list', 'data.domains[].id'],
  // A status the spec does not document.
  ['splash.list', 'status'],
  // A rate-limit header left out.
  ['overlays.list', 'header X-RateLimit-Remaining'],
] as const;

/**
 * The values of mode `tolerated` that linkgate reads but the spec documents in another form (operation, field, the
 * documented form the check names, the value seen).
 */
export const TOLERATED_VALUES = [
  ['account.get', 'data.registered', 'a date in the form YYYY-MM-DD HH:MM:SS', '"2026-01-01T09:30:00Z"'],
  ['pixels.list', 'data.pixels[].date', 'a date in the form YYYY-MM-DD HH:MM:SS', '"2026-02-03"'],
  ['qr.list', 'data.qrs[].scans', 'an integer', '"5"'],
  ['qr.get', 'details.scans', 'an integer', '"5"'],
  ['qr.get', 'data.topCountries.FR', 'a string of digits', '1'],
  ['plans.list', 'data[].free', 'true or false', '0'],
  ['plans.list', 'data[].prices.monthly', 'a number', '"9.99"'],
  ['plans.list', 'data[].limits.custom.enabled', '"0" or "1"', 'true'],
  ['plans.list', 'data[].limits.team.count', 'a string of digits', '5'],
] as const;

/** The key the server accepts. */
export const DRIFTING_KEY = 'drifting-server-key-0123456789';
/** A secret the server puts in an unknown field: it must never be printed. */
export const LEAKED_TOKEN = 'tok_live_s3cr3t_never_print_me';

/** A one-page paged envelope as the spec writes it (`error: "0"`), with `extra` overriding its numbers. */
export const page = (key: string, items: unknown[], extra: Record<string, unknown> = {}) => ({
  error: '0',
  data: {
    result: items.length,
    perpage: 15,
    currentpage: 1,
    nextpage: null,
    maxpage: items.length > 0 ? 1 : 0,
    [key]: items,
    ...extra,
  },
});

function answer(req: IncomingMessage, res: ServerResponse, mode: DriftMode): void {
  const path = (req.url ?? '/').split('?')[0];
  const limits = (omit?: string) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '29',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
    };
    if (omit) delete headers[omit];
    return headers;
  };
  const send = (status: number, body: unknown, omit?: string) => {
    res.writeHead(status, limits(omit));
    res.end(JSON.stringify(body));
  };
  if (req.headers.authorization !== `Bearer ${DRIFTING_KEY}`) {
    res.writeHead(403, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 1, message: 'A valid API key is required to use this service.' }));
    return;
  }
  const [status, body, omit] =
    mode === 'tolerated' ? toleratedAnswer(path ?? '/') : plantedAnswer(req.method ?? 'GET', path ?? '/');
  send(status, body, omit);
}

/** The account both modes answer with, but for its status and its date field. */
const DANA = { id: 7, email: 'dana@example.com', username: 'dana', avatar: '', expires: null };

/** Mode `tolerated`'s one QR code: its scans as a numeric string. */
const QR = { id: 9, link: 'https://go.example/q', scans: '5', name: 'menu', date: '2026-01-01 00:00:00' };

/** The answers of mode `tolerated`: as the spec states them but for {@link TOLERATED_VALUES}. */
function toleratedAnswer(path: string): [number, unknown] {
  switch (path) {
    case '/api/account':
      return [
        200,
        {
          error: 0,
          data: {
            ...DANA,
            status: 'pro',
            registered: '2026-01-01T09:30:00Z',
          },
        },
      ];
    case '/api/domains':
      return [200, page('domains', [])];
    case '/api/splash':
      return [200, page('splash', [])];
    case '/api/overlay':
      return [200, page('cta', [])];
    case '/api/pixels':
      return [200, page('pixels', [{ id: 3, type: 'gtmpixel', name: 'site', tag: 'GTM-ABC123', date: '2026-02-03' }])];
    case '/api/qr':
      return [200, page('qrs', [QR])];
    case '/api/qr/9':
      return [200, { error: 0, details: QR, data: { clicks: 1, uniqueClicks: 1, topCountries: { FR: 1 } } }];
    case '/api/plans':
      return [
        200,
        {
          error: 0,
          data: [
            {
              id: 2,
              name: 'Pro',
              free: 0,
              prices: { monthly: '9.99', yearly: 99, lifetime: 299 },
              limits: { links: 100, custom: { enabled: true }, team: { enabled: '1', count: 5 } },
            },
          ],
        },
      ];
    case '/api/users':
      return [200, { error: 0, data: [] }];
    default:
      return [200, { error: 1, message: `Endpoint not found: ${path}` }];
  }
}

/** The answer of each path, with its planted difference. */
function plantedAnswer(method: string, path: string): [number, unknown, string?] {
  switch (path) {
    case '/api/account':
      return [
        200,
        {
          error: 0,
          data: {
            ...DANA,
            status: 'free',
            created_at: '2026-01-01 00:00:00',
            api_token: LEAKED_TOKEN,
          },
        },
      ];
    case '/api/domains':
      return [
        200,
        page('domains', [{ id: '12', domain: 'https://go.dana.example', redirectroot: '', redirect404: '' }]),
      ];
    case '/api/splash':
      return [201, page('splash', [])];
    case '/api/overlay':
      return [200, page('cta', []), 'X-RateLimit-Remaining'];
    case '/api/pixels':
      return [200, page('pixels', [])];
    case '/api/qr':
      return [200, page('qrs', [])];
    case '/api/plans':
    case '/api/users':
      return [403, { error: 1, message: 'You do not have permission to access this endpoint.' }];
    default:
      return [200, { error: 1, message: `Endpoint not found: ${method} ${path}` }];
  }
}

/** Where the server lives: at the root, or under a path as self-hosted installs often are (`/links`). */
export interface DriftingServerOptions {
  /** A path prefix such as `/links`: the API answers under it only, anything else is a 404 page. */
  prefix?: string;
}

/** Starts the server; `close()` stops it. */
export async function startDriftingServer(
  mode: DriftMode,
  { prefix = '' }: DriftingServerOptions = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (prefix !== '') {
      const target = req.url ?? '/';
      if (!target.startsWith(`${prefix}/`)) {
        res.writeHead(404, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><title>Not found</title>');
        return;
      }
      req.url = target.slice(prefix.length);
    }
    if (mode === 'html-login') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><form action="/login"><input name="password"></form></body></html>');
      return;
    }
    if (mode === 'huge') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // 10 MB, sent in chunks without a Content-Length, as a streaming server would.
      const chunk = Buffer.alloc(1_048_576, 0x20);
      for (let i = 0; i < 10; i++) res.write(chunk);
      res.end('{}');
      return;
    }
    if (mode === 'slow') {
      const timer = setTimeout(() => answer(req, res, mode), 3_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    answer(req, res, mode);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
