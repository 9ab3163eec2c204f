import * as z from 'zod/mini';
import { DateString, Id } from './primitives.js';
import { minChars } from './rules.js';

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
export const PixelType = z.literal(PIXEL_TYPES);
/** A pixel provider. */
export type PixelType = z.infer<typeof PixelType>;

/** A tracking pixel; `type` is read as any string so a new provider does not break readers. */
export const Pixel = z.looseObject({
  id: Id,
  type: z.string(),
  name: z.string(),
  tag: z.string(),
  date: DateString,
});
/** A tracking pixel. */
export type Pixel = z.infer<typeof Pixel>;

/** Body of `POST /api/pixel/add`. */
export const PixelCreate = z.object({
  type: PixelType,
  name: z.string().check(minChars(1, 'is required')),
  tag: z.string().check(minChars(1, 'is required')),
});
/** Body of `POST /api/pixel/add`. */
export type PixelCreate = z.infer<typeof PixelCreate>;

/** Body of `PUT /api/pixel/:id/update`: `tag` is required, `name` optional. */
export const PixelUpdate = z.object({
  name: z.optional(z.string()),
  tag: z.string().check(minChars(1, 'is required')),
});
/** Body of `PUT /api/pixel/:id/update`. */
export type PixelUpdate = z.infer<typeof PixelUpdate>;
