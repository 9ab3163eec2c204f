// The `linkgate` entry as it ships: built with the package's own tsup configuration (the same entries, so the same
// shared chunks), so apps are measured against what users install rather than against the sources, which bundlers
// see one module at a time and so tree-shake better than the published chunks.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type Options } from 'tsup';
import tsupConfig from '../../tsup.config.js';
import { dir, root } from './app-bundle.js';

/**
 * Builds the package's entries (ESM only, no declarations or source maps) into `outDir` (a folder of the bundle work
 * dir unless told) and returns it; `index.js` there is what `import ... from 'linkgate'` loads.
 */
export async function buildShippedEntries(outDir = join(dir, 'dist')): Promise<string> {
  // The first configuration holds the browser-facing entries (linkgate, webhooks, mock, schemas) that share chunks.
  const entries = (tsupConfig as Options[])[0]!;
  await build({
    ...entries,
    entry: Object.fromEntries(
      Object.entries(entries.entry as Record<string, string>).map(([name, file]) => [name, join(root, file)]),
    ),
    format: ['esm'],
    dts: false,
    sourcemap: false,
    outDir,
    silent: true,
    config: false,
  });
  // The package.json bundlers read beside the built files, as in node_modules/linkgate: its sideEffects say which
  // modules must be kept for what they do at import (the Node webhooks entry compiles the event schemas).
  const { name, type, sideEffects } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(dirname(outDir), 'package.json'), JSON.stringify({ name, type, sideEffects }));
  return outDir;
}
