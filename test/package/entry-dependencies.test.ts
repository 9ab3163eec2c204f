// The app-facing entries load nothing at run time but the design's packages (linkgate/webhooks: zod/mini, whose
// schemas it parses with); mock-only dependencies stay behind linkgate/mock.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The packages and node:* modules an entry imports at run time, after bundling our own sources. */
async function runtimeImports(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.external && i.kind !== 'dynamic-import').map((i) => i.path),
  );
  return [...new Set(imports)].sort();
}

describe('run-time dependencies of each entry', () => {
  it('linkgate loads only zod/mini (its transport is its own)', async () => {
    expect(await runtimeImports('src/index.ts')).toEqual(['zod/mini']);
  });

  it('linkgate/webhooks loads only zod/mini, in both builds (Node compiles the same schemas with its compile)', async () => {
    expect(await runtimeImports('src/webhooks/index.ts')).toEqual(['zod/mini']);
    expect(await runtimeImports('src/webhooks/index.node.ts')).toEqual(['zod/mini']);
  });
});
