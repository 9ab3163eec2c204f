import * as z from 'zod/mini';
import { lazy } from './lazy.js';
import { integer, matching, urlString } from './rules.js';

/** A whole number that production sometimes sends as a numeric string (ids of new records, counts). Reads both, yields a number. */
export const Count = /* @__PURE__ */ lazy(() =>
  z.union([
    integer(),
    z.pipe(
      z.string().check(matching(/^-?\d+$/, 'expected an integer or a string of digits')),
      z.transform((s: string) => Number(s)),
    ),
  ]),
);

/**
 * An integer in a request body: a number, or a string of up to 15 digits (`"2"`), as a PHP application reading JSON
 * takes it (production's behaviour is not known). Yields a number.
 */
export const IntegerInput = /* @__PURE__ */ lazy(() =>
  z.union([
    integer(),
    z.pipe(
      z.string().check(matching(/^\d{1,15}$/, 'must be an integer or a string of digits')),
      z.transform((s: string) => Number(s)),
    ),
  ]),
);

/** An absolute URL (any scheme), e.g. the `data` of a `link` QR code. */
export const Url = /* @__PURE__ */ lazy(() => urlString('must be a URL'));

/** A record id: an integer, or a numeric string in some production versions. */
export const Id = Count;

/** The `error` flag of a success answer: `0`, or `"0"` in paged lists. Pure: only the OpenAPI document reads it. */
export const SuccessFlag = /* @__PURE__ */ lazy(() => z.union([z.literal(0), z.literal('0')]));

/** Dates are `YYYY-MM-DD HH:MM:SS` strings. */
export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A date string as the service writes it; read tolerantly (any string), validated strictly in request bodies. */
export const DateString = /* @__PURE__ */ lazy(() => z.string());

/** A `YYYY-MM-DD HH:MM:SS` date as accepted in request bodies. */
export const DateTimeInput = /* @__PURE__ */ lazy(() =>
  z.string().check(matching(DATE_TIME_PATTERN, 'must be a date in the form YYYY-MM-DD HH:MM:SS')),
);

/** A colour in the form `rgb(R,G,B)`, each channel 0-255. */
export const RgbColour = /* @__PURE__ */ lazy(() =>
  z
    .string()
    .check(
      matching(
        /^rgb\(\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*\)$/,
        'must be a colour in the form rgb(R,G,B) with each channel 0-255',
      ),
    ),
);

/** The shape of an email address as production accepts it (case-insensitive, at most 50 characters). */
export const EMAIL_PATTERN = /^[_a-z0-9-]+(\.[_a-z0-9-]+)*@[a-z0-9-]+(\.[a-z0-9-]{2,})+$/i;

/** Usernames production accepts: 4-20 word characters. */
export const USERNAME_PATTERN = /^\w{4,20}$/;

/** Minimum password length (spec, Limits). */
export const MIN_PASSWORD_LENGTH = 5;
