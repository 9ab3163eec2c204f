import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { DateString, Id } from './primitives.js';

/** Overlay types seen in the service's documentation; others are read as plain strings. */
export const OVERLAY_TYPES = ['message', 'contact'] as const;

/** A call-to-action overlay as listed. */
export const Overlay = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    type: z.string(),
    name: z.string(),
    date: DateString,
  }),
);
/** A call-to-action overlay as listed. */
export type Overlay = z.infer<typeof Overlay>;
