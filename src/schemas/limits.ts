// Length caps of request fields. Production caps names and tags (its columns are bounded) without documenting the
// numbers; linkgate picks generous ones, so no real value is refused while a 1 MB "name" cannot be stored.

/** Longest pixel name accepted (characters). */
export const MAX_NAME_CHARS = 100;

/** Longest pixel tag accepted (characters); the providers' ids are far shorter (Facebook: 20 digits). */
export const MAX_TAG_CHARS = 100;

/** Longest URL accepted in any URL field (domains, redirects, QR links and logos, media): the de facto web limit. */
export const MAX_URL_CHARS = 2048;
