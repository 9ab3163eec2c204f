import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { MAX_NAME_CHARS, MAX_TAG_CHARS } from './limits.js';
import { DateString, Id } from './primitives.js';
import { maxChars, minChars, optionalField } from './rules.js';

const name = () => z.string().check(maxChars(MAX_NAME_CHARS));
const tag = () => z.string().check(minChars(1, 'is required'), maxChars(MAX_TAG_CHARS));

/** The pixel providers the service supports (spec, Pixels). */
export const PIXEL_TYPES = [
  'gtmpixel',
  'gapixel',
  'fbpixel',
  'adwordspixel',
  'linkedinpixel',
  'twitterpixel',
  'adrollpixel',
  'quorapixel',
  'pinterest',
  'bing',
  'snapchat',
  'reddit',
] as const;

/** A pixel provider. */
export const PixelType = /* @__PURE__ */ lazy(() => z.literal(PIXEL_TYPES));
/** A pixel provider. */
export type PixelType = z.infer<typeof PixelType>;

/** A tracking pixel; `type` is read as any string so a new provider does not break readers. */
export const Pixel = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    type: z.string(),
    name: z.string(),
    tag: z.string(),
    date: DateString,
  }),
);
/** A tracking pixel. */
export type Pixel = z.infer<typeof Pixel>;

/** Body of `POST /api/pixel/add`. */
export const PixelCreate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** The provider: one of `PIXEL_TYPES` (`gtmpixel`, `gapixel`, `fbpixel`, ...). */
    type: PixelType,
    /** Your name for the pixel: required, at most 100 characters. */
    name: name().check(minChars(1, 'is required')),
    /** The provider's id of the pixel (e.g. `GTM-XXXX`): required, at most 100 characters. */
    tag: tag(),
  }),
);
/** Body of `POST /api/pixel/add`. */
export type PixelCreate = z.infer<typeof PixelCreate>;

/** Body of `PUT /api/pixel/:id/update`: `tag` is required, `name` optional (`null` reads as not sent). */
export const PixelUpdate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** Your name for the pixel: at most 100 characters. */
    name: optionalField(name()),
    /** The provider's id of the pixel: required, at most 100 characters. */
    tag: tag(),
  }),
);
/** Body of `PUT /api/pixel/:id/update`. */
export type PixelUpdate = z.infer<typeof PixelUpdate>;
