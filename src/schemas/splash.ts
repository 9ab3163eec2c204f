import * as z from 'zod/mini';
import { entity } from './entity.js';
import { lazy } from './lazy.js';
import { DateString, Id } from './primitives.js';

/** A custom splash page as listed. */
export const Splash = /* @__PURE__ */ lazy(() =>
  entity({
    id: Id,
    name: z.string(),
    date: DateString,
  }),
);
/** A custom splash page as listed. */
export type Splash = z.infer<typeof Splash>;
