// msw is an optional peer dependency: it is loaded here, once, so `linkgate/mock` (startMockServer, backend.fetch)
// loads without it and `backend.handlers` can say how to install it. The CJS build swaps this file for
// msw-module.cjs.ts (see tsup.config.ts), because top-level await does not exist in CommonJS.
import type * as Msw from 'msw';
import { mswLoadError } from './msw-load-error.js';

let loaded: typeof Msw | undefined;
let failure: unknown;
try {
  loaded = await import('msw');
} catch (error) {
  failure = error;
}

/** msw's module, or an error that says to install it (or, if msw itself failed to load, why). */
export function mswModule(): typeof Msw {
  if (loaded) return loaded;
  throw mswLoadError(failure);
}
