import { routerPath } from '../http/operation-route.js';
import { failure } from '../http/responses.js';
import type { RouteGroup } from '../http/router.js';
import type { MockRequest, MockResponse } from '../http/types.js';
import { QR_IMAGE_OPERATION } from '../openapi-control.js';
import { renderQrPng } from '../shared/qr-png.js';
import { encodeQrContent } from './qr-content.js';
import type { ManagementHost } from './route-context.js';
import type { QrRow } from './store.js';

/**
 * Where the mock serves QR images: `GET /api/qr/image/<token>.png`, no API key needed (like a public image URL). The
 * router cannot spell the document's `{token}.png`: it takes any file name, and the handler answers 404 for one that
 * is not `<token>.png`.
 */
export const QR_IMAGE_ROUTE = routerPath(QR_IMAGE_OPERATION.path.replace('{token}.png', '{file}'));

/** The absolute URL of a QR code's PNG, as `link` in API answers. */
export function qrImageLink(core: ManagementHost, req: MockRequest, row: QrRow): string {
  return `${core.linkBase(req)}/api/qr/image/${row.token}.png`;
}

/** The public group serving QR images; it sits under `/api` so msw handlers for the API also catch it. */
export function qrImageGroup(core: ManagementHost): RouteGroup<undefined> {
  return {
    name: 'qr-image',
    guard: () => ({ ok: true, context: undefined }),
    routes: [
      {
        method: QR_IMAGE_OPERATION.method,
        path: QR_IMAGE_ROUTE,
        async handle({ params }) {
          const token = /^([0-9a-f]{1,64})\.png$/.exec(params.file ?? '')?.[1];
          const row = token ? core.store.qrByToken(token) : undefined;
          if (!row) return failure('QR does not exist.', { status: 404 });
          return renderQrResponse(row);
        },
      },
    ],
  };
}

async function renderQrResponse(row: QrRow): Promise<MockResponse> {
  const png = await renderQrPng(encodeQrContent(row.type, row.data), {
    colours: {
      foreground: parseRgb(row.foreground) ?? [0, 0, 0],
      background: parseRgb(row.background) ?? [255, 255, 255],
    },
  });
  return { status: 200, headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' }, body: png };
}

/** `rgb(R,G,B)` as stored (already validated), or undefined. */
function parseRgb(text: string | null): [number, number, number] | undefined {
  const m = text ? /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(text) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}
