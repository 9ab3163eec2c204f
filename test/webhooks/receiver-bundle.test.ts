// What a receiver ships: the webhook code, the zod/mini event schemas and zod/mini to parse with, nothing else (issues
// #23, #30). Bundled as a browser or edge app is (esbuild, the same way `npm run size` does), it carries no management
// or messaging operation, no HTTP client and no zod compiler; the Node entry is the same code plus zod's compiler.
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

  it('validates events with the zod/mini schemas as written: no classic zod, no compiler', () => {
    expect(browserApp).toContain('src/schemas/events.ts');
    expect(browserApp).toContain('node_modules/zod/v4/mini/schemas.js');
    expect(browserApp.filter((file) => /^node_modules\/zod\/v4\/(?:classic\/|core\/compile\.js)/.test(file))).toEqual(
      [],
    );
    expect(browserApp).not.toContain('src/webhooks/node-parsers.ts');
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
  it('is the default build plus zod’s compiler, and no classic zod', async () => {
    const nodeEntry = await bundledFiles('src/webhooks/index.node.ts', 'node');
    const plain = await bundledFiles('src/webhooks/index.ts', 'node');
    expect(plain.filter((file) => !nodeEntry.includes(file))).toEqual([]);
    const added = nodeEntry.filter((file) => !plain.includes(file));
    expect(added).toEqual(
      expect.arrayContaining(['src/webhooks/node-parsers.ts', 'node_modules/zod/v4/core/compile.js']),
    );
    expect(
      added.filter(
        (file) => !/^src\/webhooks\/(?:index\.node|node-parsers)\.ts$|^node_modules\/zod\/v4\/core\//.test(file),
      ),
    ).toEqual([]);
    expect(nodeEntry.filter((file) => file.includes('node_modules/zod/v4/classic/'))).toEqual([]);
  });
});
