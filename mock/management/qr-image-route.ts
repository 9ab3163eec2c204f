import * as z from 'zod/mini';
import { routerPath } from '../http/operation-route.js';
import { input } from '../http/own-input.js';
import { component, json, type OwnOperation, str } from '../http/own-operation.js';
import { failure } from '../http/responses.js';
import type { RouteGroup } from '../http/router.js';
import type { MockRequest, MockResponse } from '../http/types.js';
import { renderQrPng } from '../shared/qr-png.js';
import { encodeQrContent } from './qr-content.js';
import type { ManagementHost } from './route-context.js';
import type { QrRow } from './store.js';

/** The hex token of a QR image file name, as the route reads it. */
const QR_TOKEN = z
  .string()
  .check(z.regex(/^[0-9a-f]{1,64}$/), z.meta({ description: 'The QR code’s image token, as in its `link`.' }));

/**
 * A QR code's PNG: public, like an image URL (served below; the OpenAPI document reads it too). The file is spelt
 * `{token}.png`, as it is: a bare `{file}` would make `/api/qr/image/update` read as `/api/qr/{id}/update` too.
 */
export const QR_IMAGE_OPERATION: OwnOperation = {
  id: 'getQrImage',
  method: 'GET',
  path: '/api/qr/image/{token}.png',
  summary: 'A QR code’s PNG (the `link` of a QR code; no key needed)',
  tag: 'qr',
  token: false,
  status: 200,
  params: input({ token: QR_TOKEN }),
  responses: {
    '200': {
      description: 'The image.',
      content: { 'image/png': { schema: str(undefined, { contentMediaType: 'image/png' }) } },
    },
    '404': { description: 'No such QR code.', content: json(component('ErrorEnvelope')) },
  },
};

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
          const token = /^(.*)\.png$/.exec(params.file ?? '')?.[1];
          const row = z.safeParse(QR_TOKEN, token).success ? core.store.qrByToken(token!) : undefined;
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
