import * as z from 'zod/mini';
import { Count, DateString, Id, RgbColour, Url } from './primitives.js';
import { matching, minChars } from './rules.js';

/** QR code content types (spec, QR body fields). */
export const QR_TYPES = ['text', 'vcard', 'link', 'email', 'phone', 'sms', 'wifi'] as const;
/** A QR content type. */
export const QrType = z.literal(QR_TYPES);
/** A QR content type. */
export type QrType = z.infer<typeof QrType>;

const nonEmpty = () => z.string().check(minChars(1, 'must not be empty'));

/** `data` for `email`: an address, or `{ email, subject?, body? }` (encoded as `mailto:`). */
export const QrEmailData = z.union([
  nonEmpty(),
  z.object({ email: nonEmpty(), subject: z.optional(z.string()), body: z.optional(z.string()) }),
]);
/** `data` for `phone`: digits, `+` allowed (encoded as `tel:`). */
export const QrPhoneData = z
  .string()
  .check(matching(/^\+?\d{3,20}$/, 'must be a phone number: digits, optionally after +'));
/** `data` for `sms`: `{ phone, message }` (encoded as `smsto:phone:message`). */
export const QrSmsData = z.object({
  phone: z.string().check(matching(/^\+?\d{3,20}$/, 'must be a phone number: digits, optionally after +')),
  message: z.string(),
});
/** `data` for `wifi`: `{ ssid, pass, encryption }`; a plain string is rejected. */
export const QrWifiData = z.object({
  ssid: nonEmpty(),
  pass: z.string(),
  encryption: z.literal(['WPA', 'WEP', 'nopass', 'WPA2', 'WPA3']),
});
/** `data` for `vcard`: any subset of these string fields (encoded as vCard 3.0). */
export const QrVcardData = z.object({
  fname: z.optional(z.string()),
  lname: z.optional(z.string()),
  org: z.optional(z.string()),
  phone: z.optional(z.string()),
  cell: z.optional(z.string()),
  fax: z.optional(z.string()),
  email: z.optional(z.string()),
  site: z.optional(z.string()),
  street: z.optional(z.string()),
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  zip: z.optional(z.string()),
  country: z.optional(z.string()),
});

/** The `data` schema for each QR type. */
export const QR_DATA_BY_TYPE = {
  text: nonEmpty(),
  link: Url,
  email: QrEmailData,
  phone: QrPhoneData,
  sms: QrSmsData,
  wifi: QrWifiData,
  vcard: QrVcardData,
} as const;

/** Logo: a path or URL of a PNG or JPEG image. */
export const QrLogo = z
  .string()
  .check(matching(/\.(png|jpe?g)(\?.*)?$/i, 'must be the path or URL of a PNG or JPEG image'));

const appearance = {
  background: z.optional(RgbColour),
  foreground: z.optional(RgbColour),
  logo: z.optional(QrLogo),
};

const variant = <T extends QrType>(type: T) =>
  z.object({ type: z.literal(type), data: QR_DATA_BY_TYPE[type] as (typeof QR_DATA_BY_TYPE)[T], ...appearance });

/**
 * Body of `POST /api/qr/add`: `data` must fit `type`. A plain union of the variants (each tagged by its `type` literal):
 * it checks the same as a discriminated union at a third of the bundle size; readers of its issues pick the variant.
 */
export const QrCreate = z.union([
  variant('text'),
  variant('link'),
  variant('email'),
  variant('phone'),
  variant('sms'),
  variant('wifi'),
  variant('vcard'),
]);
/** Body of `POST /api/qr/add`. */
export type QrCreate = z.infer<typeof QrCreate>;

/** Any `data` a QR code can hold. */
export const QrData = z.union([z.string(), QrEmailData, QrSmsData, QrWifiData, QrVcardData]);
/** Any `data` a QR code can hold. */
export type QrData = z.infer<typeof QrData>;

/**
 * Body of `PUT /api/qr/:id/update`: `data` is required and is checked against the code's type.
 * Decision: a `type` in the body changes the code's type (the spec does not say; the mock honours it).
 */
export const QrUpdate = z.object({
  type: z.optional(QrType),
  data: QrData,
  ...appearance,
});
/** Body of `PUT /api/qr/:id/update`. */
export type QrUpdate = z.infer<typeof QrUpdate>;

/** A QR code as listed, and the `details` of a single read. */
export const Qr = z.looseObject({
  id: Id,
  link: z.string(),
  scans: Count,
  name: z.string(),
  date: DateString,
});
/** A QR code. */
export type Qr = z.infer<typeof Qr>;

// An object of counts keyed by name (a catch-all object: the same check as a record, lighter in the browser bundle).
const countMap = z.catchall(z.object({}), z.union([z.string(), z.number()]));

/** Statistics of a QR code (`data` of `GET /api/qr/:id`); top-N maps carry counts as strings. */
export const QrStats = z.looseObject({
  clicks: Count,
  uniqueClicks: Count,
  topCountries: z.optional(z.union([countMap, z.array(z.unknown())])),
  topReferrers: z.optional(z.union([countMap, z.array(z.unknown())])),
  topBrowsers: z.optional(z.union([countMap, z.array(z.unknown())])),
  topOs: z.optional(z.union([countMap, z.array(z.unknown())])),
  socialCount: z.optional(z.looseObject({ facebook: Count, twitter: Count, instagram: Count })),
});
/** Statistics of a QR code. */
export type QrStats = z.infer<typeof QrStats>;

/** `GET /api/qr/:id`: `{ error, details, data }`. */
export const QrDetailEnvelope = z.looseObject({ error: Count, details: Qr, data: QrStats });

/** `POST /api/qr/add`: `{ error, id, link }`. */
export const QrCreatedEnvelope = z.looseObject({ error: Count, id: Id, link: z.string() });
