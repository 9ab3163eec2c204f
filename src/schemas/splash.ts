import * as z from 'zod/mini';
import { entity } from './entity.js';
import { DateString, Id } from './primitives.js';

/** A custom splash page as listed. */
export const Splash = /* @__PURE__ */ entity({
  id: Id,
  name: /* @__PURE__ */ z.string(),
  date: DateString,
});
/** A custom splash page as listed. */
export type Splash = z.infer<typeof Splash>;
