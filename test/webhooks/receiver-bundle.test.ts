// What a receiver ships: the webhook code and the event shapes as a generated table, nothing else (issue #23). Bundled
// as a browser or edge app is (esbuild, the same way `npm run size` does), it carries no management or messaging
// operation, no HTTP client and no zod at all; the Node entry is the same code.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A bundle of `entry`: its code, and the source files and packages it is made of (repository-relative paths). */
async function bundle(entry: string, platform: 'browser' | 'node'): Promise<{ code: string; files: string[] }> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: 'silent',
  });
  // Files that left bytes in the output (esbuild lists the ones it shook out too); node_modules may be a link to a
  // shared install, so package files are named from node_modules/ on.
  const [output] = Object.values(result.metafile.outputs);
  const files = Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file.replace(/^.*?(node_modules\/)/, '$1'));
  return { code: result.outputFiles[0]!.text, files };
}

const bundledFiles = async (entry: string, platform: 'browser' | 'node') => (await bundle(entry, platform)).files;

const { code: browserCode, files: browserApp } = await bundle('bench/apps/webhook-receiver.ts', 'browser');

describe('the receiver app bundled for a browser or an edge (bench/apps/webhook-receiver.ts)', () => {
  it('contains no management or messaging operation, no SDK client and no HTTP client', () => {
    const sdk = browserApp.filter((file) =>
      /^src\/(?:management|messaging|resources)\/|^src\/schemas\/(?!events\.ts$)|^src\/core\/(?!clock\.ts$)|node_modules\/ky\//.test(
        file,
      ),
    );
    expect(sdk).toEqual([]);
  });

  it('validates events with the generated shape table, with no zod at run time (no schema, no compiler)', () => {
    expect(browserApp).toContain('src/webhooks/event-shapes.generated.ts');
    expect(browserApp).toContain('src/webhooks/event-validation.ts');
    expect(browserApp.filter((file) => file.startsWith('node_modules/zod/'))).toEqual([]);
    // zod names each of its classes in a string, which minifying keeps: none is left.
    expect(browserCode).not.toMatch(/\$Zod|zod/i);
  });

  it('carries neither the union of all events (parsing looks the schema up by name) nor what only verifiers need', () => {
    expect(browserCode).not.toContain('ZodDiscriminatedUnion');
    // The handler reads a Request: the sync verifier's store check is createWebhookVerifier's and verifyWebhookSync's.
    expect(browserCode).not.toContain('needs a synchronous dedupe store');
  });

  it('carries the English messages of the event schemas’ issues, not a zod locale', () => {
    expect(browserApp).toContain('src/webhooks/issue-messages.ts');
    expect(browserApp.filter((file) => file.includes('/v4/locales/'))).toEqual([]);
  });
});

describe('linkgate/webhooks for Node (src/webhooks/index.node.ts)', () => {
  it('is the same code as the default build, without zod', async () => {
    const nodeEntry = await bundledFiles('src/webhooks/index.node.ts', 'node');
    const plain = await bundledFiles('src/webhooks/index.ts', 'node');
    expect(nodeEntry.filter((file) => file !== 'src/webhooks/index.node.ts')).toEqual(plain);
    expect(nodeEntry.filter((file) => file.includes('node_modules/zod/'))).toEqual([]);
  });
});
