import { createPixel, type ManagementOperationId, updatePixel } from '../../src/schemas/operations.js';
import type { PixelType } from '../../src/schemas/pixel.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { createdId } from './created-id.js';
import { ownedDeleteHandler, ownedListHandler } from './owned-routes.js';
import { ownRow, toPixel } from './records.js';
import { parseWith, readId, readJsonBody } from './request-validation.js';
import type { ManagementContext } from './route-context.js';
import { type MockStore, pixelTagKey, type UserRow } from './store.js';

const NOT_FOUND = 'Pixel not found. Please try again.';
const MISSING = {
  type: 'Missing type parameter. Pixel provider is required.',
  name: 'Missing name parameter. Pixel name is required.',
  tag: 'Missing tag parameter. Pixel tag is required.',
} as const;

/** Provider names as production writes them in `<Provider> ID is not correct.` */
const PROVIDER_NAMES: Record<PixelType, string> = {
  gtmpixel: 'Google Tag Manager',
  gapixel: 'Google Analytics',
  fbpixel: 'Facebook',
  adwordspixel: 'Google Ads',
  linkedinpixel: 'LinkedIn',
  twitterpixel: 'Twitter',
  adrollpixel: 'AdRoll',
  quorapixel: 'Quora',
  pinterest: 'Pinterest',
  bing: 'Bing',
  snapchat: 'Snapchat',
  reddit: 'Reddit',
};

/** Production's tag rules: 3+ characters; Facebook digits only (max 20); GTM contains `GTM`, 5+ characters. */
export function isValidPixelTag(type: PixelType, tag: string): boolean {
  if (tag.length < 3) return false;
  if (type === 'fbpixel') return /^\d{1,20}$/.test(tag);
  if (type === 'gtmpixel') return tag.includes('GTM') && tag.length >= 5;
  return true;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function checkTag(type: PixelType, tag: string, user: UserRow, pixels: MockStore['pixels'], self?: number): void {
  if (!isValidPixelTag(type, tag))
    throw new RequestRejection(`${PROVIDER_NAMES[type] ?? type} ID is not correct. Please double check.`);
  const clash = pixels.findBy('tag', pixelTagKey(user.id, type, tag)).some((p) => p.id !== self);
  if (clash) throw new RequestRejection('A pixel with this provider and tag already exists.');
}

/** Tracking pixels: list, add, update, delete. */
export const pixelHandlers = {
  'pixels.list': ownedListHandler({ collection: 'pixels', table: 'pixels', record: toPixel }),
  'pixels.create'({ req, context }) {
    const { core, user } = context;
    const raw = readJsonBody(req);
    for (const field of ['type', 'name', 'tag'] as const) {
      if (isBlank(raw[field])) throw new RequestRejection(MISSING[field]);
    }
    const body = parseWith(createPixel.body, raw, {
      message: (issues) =>
        issues.some((i) => i.field === 'type') ? 'Pixel provider is currently not supported.' : undefined,
    });
    checkTag(body.type, body.tag, user, core.store.pixels);
    const row = core.store.addPixel(user.id, body);
    return success({ id: createdId(core, row.id) });
  },
  'pixels.update'({ req, params, context }) {
    const { core, user } = context;
    const id = readId(params);
    const raw = readJsonBody(req);
    const row = ownRow(core.store.pixels, id, user.id, NOT_FOUND);
    if (isBlank(raw.tag)) throw new RequestRejection(MISSING.tag);
    const body = parseWith(updatePixel.body, raw);
    checkTag(row.type as PixelType, body.tag, user, core.store.pixels, row.id);
    row.tag = body.tag;
    core.store.pixels.reindex(row);
    // An empty name would leave the pixel unnamed in the dashboard; keep the old one.
    if (body.name) row.name = body.name;
    return success({ message: 'Pixel has been updated successfully.' });
  },
  'pixels.delete': ownedDeleteHandler('pixels', {
    notFound: NOT_FOUND,
    deleted: 'Pixel has been deleted successfully.',
  }),
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
