// The Node entry's parsers: the same zod/mini schemas, compiled by zod's `compile` (zod/v4/core, shared by classic zod
// and zod/mini) into one generated function per event. Valid deliveries take it; anything else falls back to the
// schema's own parser, so the issues are zod's, word for word. Only src/webhooks/index.node.ts loads this file, so
// bundles for browsers and edges carry no compiler (docs/decisions/receiver-validates-with-zod.md).
import { compile, config } from 'zod/mini';
import { type SchemaPreparer, useSchemaPreparer } from './parse.js';

// `compile` builds its parser with `new Function`: where an app has turned that off (`z.config({ jitless: true })`,
// for a CSP or `--jitless`), the schema is parsed as written.
const compiled: SchemaPreparer = (schema) => (config().jitless ? schema : compile(schema));

/** Makes `parseWebhookEvent` and the verifiers parse with the compiled schemas (each compiled on its first delivery). */
export function useCompiledEventParsers(): void {
  useSchemaPreparer(compiled);
}
