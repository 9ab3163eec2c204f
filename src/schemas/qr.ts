import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { MAX_URL_CHARS } from './limits.js';
import { Count, DateString, Id, RgbColour, Url } from './primitives.js';
import { matching, maxChars, minChars, optionalField } from './rules.js';

/** QR code content types (spec, QR body fields). */
export const QR_TYPES = ['text', 'vcard', 'link', 'email', 'phone', 'sms', 'wifi'] as const;
/** A QR content type. */
export const QrType = /* @__PURE__ */ lazy(() => z.literal(QR_TYPES));
/** A QR content type. */
export type QrType = z.infer<typeof QrType>;

const nonEmpty = () => z.string().check(minChars(1, 'must not be empty'));

/** `data` for `email`: an address, or `{ email, subject?, body? }` (encoded as `mailto:`). */
export const QrEmailData = /* @__PURE__ */ lazy(() =>
  z.union([
    nonEmpty(),
    z.object({
      email: nonEmpty(),
      subject: optionalField(z.string()),
      body: optionalField(z.string()),
    }),
  ]),
);
/** `data` for `phone`: digits, `+` allowed (encoded as `tel:`). */
export const QrPhoneData = /* @__PURE__ */ lazy(() =>
  z.string().check(matching(/^\+?\d{3,20}$/, 'must be a phone number: digits, optionally after +')),
);
/** `data` for `sms`: `{ phone, message }` (encoded as `smsto:phone:message`). */
export const QrSmsData = /* @__PURE__ */ lazy(() => z.object({ phone: QrPhoneData, message: z.string() }));
/** `data` for `wifi`: `{ ssid, pass, encryption }`; a plain string is rejected. */
export const QrWifiData = /* @__PURE__ */ lazy(() =>
  z.object({
    ssid: nonEmpty(),
    pass: z.string(),
    encryption: z.literal(['WPA', 'WEP', 'nopass', 'WPA2', 'WPA3']),
  }),
);
/** `data` for `vcard`: any subset of these string fields (encoded as vCard 3.0); `null` reads as not sent. */
export const QrVcardData = /* @__PURE__ */ lazy(() =>
  z.object({
    fname: optionalField(z.string()),
    lname: optionalField(z.string()),
    org: optionalField(z.string()),
    phone: optionalField(z.string()),
    cell: optionalField(z.string()),
    fax: optionalField(z.string()),
    email: optionalField(z.string()),
    site: optionalField(z.string()),
    street: optionalField(z.string()),
    city: optionalField(z.string()),
    state: optionalField(z.string()),
    zip: optionalField(z.string()),
    country: optionalField(z.string()),
  }),
);

/** The `data` of a `text` code: any non-empty string. */
const QrText = /* @__PURE__ */ lazy(nonEmpty);

/** The `data` schema for each QR type. */
export const QR_DATA_BY_TYPE = {
  text: QrText,
  link: Url,
  email: QrEmailData,
  phone: QrPhoneData,
  sms: QrSmsData,
  wifi: QrWifiData,
  vcard: QrVcardData,
} as const;

/**
 * Logo: a path or URL of a PNG or JPEG image, the extension last or right before a `?query`. The rule looks only at
 * the few characters after each `.`, so its time stays linear in the length (`(\?.*)?$` made it quadratic).
 */
export const QrLogo = /* @__PURE__ */ lazy(() =>
  z
    .string()
    .check(maxChars(MAX_URL_CHARS), matching(/\.(png|jpe?g)(\?|$)/i, 'must be the path or URL of a PNG or JPEG image')),
);

// `null` for any of them reads as not sent (the code keeps its colours and logo on update). The fields are spread into
// every variant and the update body through `.shape`, so all of them share these three.
const QrAppearance = /* @__PURE__ */ lazy(() =>
  z.object({
    /** The background colour: `rgb(R,G,B)`, each 0-255. */
    background: optionalField(RgbColour),
    /** The colour of the modules: `rgb(R,G,B)`, each 0-255. */
    foreground: optionalField(RgbColour),
    /** A path or URL of a PNG or JPEG image (`.png`, `.jpg` or `.jpeg` last or before a `?query`), at most 2,048 characters. */
    logo: optionalField(QrLogo),
  }),
);

const variant = <T extends QrType>(type: T) =>
  z.object({
    type: z.literal(type),
    data: QR_DATA_BY_TYPE[type] as (typeof QR_DATA_BY_TYPE)[T],
    ...QrAppearance.shape,
  });

/**
 * Body of `POST /api/qr/add`: `data` must fit `type`. A plain union of the variants (each tagged by its `type` literal):
 * it checks the same as a discriminated union at a third of the bundle size; readers of its issues pick the variant.
 */
export const QrCreate = /* @__PURE__ */ lazy(() =>
  z.union([
    variant('text'),
    variant('link'),
    variant('email'),
    variant('phone'),
    variant('sms'),
    variant('wifi'),
    variant('vcard'),
  ]),
);
/** Body of `POST /api/qr/add`. */
export type QrCreate = z.infer<typeof QrCreate>;

/** Any `data` a QR code can hold. */
export const QrData = /* @__PURE__ */ lazy(() =>
  z.union([z.string(), QrEmailData, QrSmsData, QrWifiData, QrVcardData]),
);
/** Any `data` a QR code can hold. */
export type QrData = z.infer<typeof QrData>;

/**
 * Body of `PUT /api/qr/:id/update`: `data` is required and is checked against the code's type.
 * Decision: a `type` in the body changes the code's type (the service's documentation does not say; the mock honours it).
 */
export const QrUpdate = /* @__PURE__ */ lazy(() =>
  z.object({
    /** A new type: one of `QR_TYPES` (`text`, `vcard`, `link`, `email`, `phone`, `sms`, `wifi`). */
    type: optionalField(QrType),
    /**
     * The content, which must fit the code's type: text or a URL as a non-empty string; `{ email, subject?, body? }`;
     * a phone of 3 to 20 digits (an optional leading `+`); `{ phone, message }`; `{ ssid, pass, encryption }` with
     * `encryption` one of `WPA`, `WEP`, `nopass`, `WPA2`, `WPA3`; or vCard fields.
     */
    data: QrData,
    ...QrAppearance.shape,
  }),
);
/** Body of `PUT /api/qr/:id/update`. */
export type QrUpdate = z.infer<typeof QrUpdate>;

/** A QR code as listed, and the `details` of a single read. */
export const Qr = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    link: z.string(),
    scans: Count,
    name: z.string(),
    date: DateString,
  }),
);
/** A QR code. */
export type Qr = z.infer<typeof Qr>;

// An object of counts keyed by name (a catch-all object: the same check as a record, lighter in the browser bundle).
const countMap = /* @__PURE__ */ lazy(() => z.catchall(z.object({}), z.union([z.string(), z.number()])));
// A top-N list: the map, or an array.
const topCounts = /* @__PURE__ */ lazy(() => z.optional(z.union([countMap, z.array(z.unknown())])));

/** Statistics of a QR code (`data` of `GET /api/qr/:id`); top-N maps carry counts as strings. */
export const QrStats = /* @__PURE__ */ lazy(() =>
  entity({
    clicks: Count,
    uniqueClicks: Count,
    topCountries: topCounts,
    topReferrers: topCounts,
    topBrowsers: topCounts,
    topOs: topCounts,
    socialCount: z.optional(entity({ facebook: Count, twitter: Count, instagram: Count })),
  }),
);
/** Statistics of a QR code. */
export type QrStats = z.infer<typeof QrStats>;

/** `GET /api/qr/:id`: `{ error, details, data }`. */
export const QrDetailEnvelope = /* @__PURE__ */ lazy(() => z.looseObject({ error: Count, details: Qr, data: QrStats }));

/** `POST /api/qr/add`: `{ error, id, link }`. */
export const QrCreatedEnvelope = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    error: Count,
    id: Id,
    link: z.string(),
  }),
);
