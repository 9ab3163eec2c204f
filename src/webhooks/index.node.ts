/**
 * `linkgate/webhooks` as Node (and Deno, Bun) load it, through the package's `node` export condition: the same names
 * as `./index.ts`, with the event schemas compiled by zod's `compile` for throughput (same answers, same issues).
 * Browsers, workers, edge runtimes and bundlers for them take `./index.ts`, which ships no compiler.
 *
 * @packageDocumentation
 * @module linkgate/webhooks
 */
import { useCompiledEventParsers } from './node-parsers.js';

export * from './index.js';

useCompiledEventParsers();
