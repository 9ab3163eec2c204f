import * as z from 'zod/mini';

/**
 * A record the service sends, read by a tolerant reader: fields the server adds pass through at run time and reach
 * the caller, while the type lists only the known fields, so a typo such as `domain.redirectrot` does not compile.
 * Read a field the server added as `(domain as Record<string, unknown>).added`.
 */
export function entity<T extends z.core.$ZodShape>(shape: T): z.ZodMiniObject<T, z.core.$strip> {
  // The schema passes unknown keys (loose); only its static type is the closed one.
  return z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;
}
