// The app bundle the SDK's size is judged by, shared by bench/bundle-size.bench.ts and scripts/check-size.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** An app that imports `Linkgate` and calls every resource, as a browser app would (bench/apps/every-resource.ts). */
export const appSource = appEntry('every-resource');

/** An entry source that re-exports one of the apps in bench/apps, so the apps themselves are type-checked files. */
export function appEntry(name: string): string {
  return `export * from ${JSON.stringify(join(root, 'bench/apps', `${name}.ts`))};`;
}

/**
 * An entry source bundling `host` (an app's own code, e.g. a floor app) and `app` together, each kept whole under its
 * own name: what an app already on ky and zod/mini weighs once it also uses linkgate.
 */
export function withHost(host: string, app: string, name: string): string {
  const hostFile = join(dir, `${name}-host.ts`);
  writeFileSync(hostFile, host);
  return `import * as host from ${JSON.stringify(hostFile)};\n${app.replace('export *', 'import * as app')}\nexport { host, app };`;
}

/** How an app is bundled: for a browser (the default) or for Node, which takes the package's `node` conditions. */
export type Platform = 'browser' | 'node';

const exportsMap = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<
  string,
  { node?: { import: { default: string } }; import: { default: string } }
>;

/** The built file an `import` of `linkgate/webhooks` loads on `platform`, by the package's exports (dist/ relative). */
export function webhooksFile(platform: Platform): string {
  const entry = exportsMap['./webhooks']!;
  return ((platform === 'node' && entry.node ? entry.node : entry).import.default as string).replace('./dist/', '');
}

/** A folder for entry files, removed by {@link removeWorkDir}. */
export const dir = mkdtempSync(join(tmpdir(), 'linkgate-bundle-'));

/** Removes the entry-file folder. */
export function removeWorkDir(): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Bundles `source` with esbuild (browser unless told, minified, ESM) and returns its minified and gzip -9 sizes in
 * bytes. `standIns` maps a source file (path from the root, e.g. `src/core/logger.ts`) or the `ky` package to code
 * bundled in its place, to measure what that part costs. With `shipped` (a folder from bench/support/package-build.ts),
 * the apps' imports of `src/index.js` and `src/webhooks/index.js` load the built `linkgate` and `linkgate/webhooks`
 * entries there instead (the latter as the package's exports give it to `platform`), as an installed package would.
 */
export async function gzipped(
  source: string,
  name: string,
  standIns: Record<string, string> = {},
  shipped?: string,
  platform: Platform = 'browser',
): Promise<{ raw: number; gz: number }> {
  const code = await bundled(source, name, standIns, shipped, platform);
  return { raw: code.byteLength, gz: gzipSync(code, { level: 9 }).byteLength };
}

/** The minified bundle of `source` as text (see {@link gzipped}), to check what an app carries. */
export async function bundleText(
  source: string,
  name: string,
  shipped?: string,
  platform: Platform = 'browser',
): Promise<string> {
  return new TextDecoder().decode(await bundled(source, name, {}, shipped, platform));
}

async function bundled(
  source: string,
  name: string,
  standIns: Record<string, string>,
  shipped: string | undefined,
  platform: Platform,
): Promise<Uint8Array> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2022',
    // The built package's side-effect-free chunks are bare-imported by its entries; esbuild warns as it drops them.
    logLevel: 'error',
    write: false,
    absWorkingDir: root,
    nodePaths: [join(root, 'node_modules')],
    plugins: [
      {
        name: 'stand-ins',
        setup(build) {
          if (shipped) {
            build.onResolve({ filter: /\/src\/index\.js$/ }, () => ({ path: join(shipped, 'index.js') }));
            build.onResolve({ filter: /\/src\/webhooks\/index\.js$/ }, () => ({
              path: join(shipped, webhooksFile(platform)),
            }));
          }
          const kyStandIn = standIns.ky;
          if (kyStandIn !== undefined) {
            build.onResolve({ filter: /^ky$/ }, () => ({ path: 'ky', namespace: 'stand-in' }));
            build.onLoad({ filter: /.*/, namespace: 'stand-in' }, () => ({ contents: kyStandIn, loader: 'js' }));
          }
          const byPath = new Map(Object.entries(standIns).map(([file, contents]) => [join(root, file), contents]));
          build.onLoad({ filter: /\.ts$/ }, (args) => {
            const contents = byPath.get(args.path);
            return contents === undefined ? undefined : { contents, loader: 'ts' };
          });
        },
      },
    ],
  });
  return result.outputFiles[0]!.contents;
}
