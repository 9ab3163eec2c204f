// The CommonJS build's msw-module.ts (swapped in by tsup.config.ts): `require` is synchronous, so no top-level await.
import type * as Msw from 'msw';
import { mswLoadError } from './msw-load-error.js';

declare const require: (id: string) => unknown;

let loaded: typeof Msw | undefined;
let failure: unknown;
try {
  loaded = require('msw') as typeof Msw;
} catch (error) {
  failure = error;
}

/** msw's module, or an error that says to install it (or, if msw itself failed to load, why). */
export function mswModule(): typeof Msw {
  if (loaded) return loaded;
  throw mswLoadError(failure);
}
