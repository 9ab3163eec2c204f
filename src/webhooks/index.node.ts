/**
 * `linkgate/webhooks` as Node (and Deno, Bun) load it, through the package's `node` export condition: the same entry
 * as `./index.ts`, kept as its own file so the export condition (and `dist/webhooks.node.js`) stays put for apps
 * and bundlers that name it. Every runtime validates with the generated shape table; none loads zod.
 *
 * @packageDocumentation
 * @module linkgate/webhooks
 */
export * from './index.js';
