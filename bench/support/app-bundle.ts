// The app bundle the SDK's size is judged by, shared by bench/bundle-size.bench.ts and scripts/check-size.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** An app that imports `Linkgate` and calls every resource, as a browser app would. */
export const appSource = `
import { Linkgate, NotFoundError } from ${JSON.stringify(join(root, 'src/index.ts'))};
const client = new Linkgate({ apiKey: 'k', baseUrl: 'https://links.example.com', dangerouslyAllowBrowser: true });
export async function main() {
  await client.account.get();
  await client.account.update({ email: 'a@example.com' });
  for await (const d of client.domains.list()) console.log(d);
  await client.domains.create({ domain: 'https://go.example.com' });
  await client.domains.update(1, { redirectroot: 'https://example.com' });
  await client.domains.delete(1);
  await client.splash.list();
  await client.overlays.list().toArray({ max: 10 });
  for await (const p of client.pixels.list().pages()) console.log(p.items);
  await client.pixels.create({ type: 'gtmpixel', name: 'n', tag: 'GTM-1234' });
  await client.pixels.update(1, { tag: 'GTM-1234' });
  await client.pixels.delete(1);
  await client.qr.list();
  await client.qr.get(1);
  await client.qr.create({ type: 'link', data: 'https://example.com' });
  await client.qr.update(1, { data: 'x' });
  await client.qr.delete(1);
  await client.plans.list();
  await client.plans.subscribe(1, 2, { type: 'monthly' });
  await client.users.list({ filter: 'pro' });
  await client.users.get(1);
  await client.users.create({ username: 'dave', email: 'd@example.com', password: 'secret' });
  await client.users.delete(1);
  return NotFoundError;
}
`;

/** A folder for entry files, removed by {@link removeWorkDir}. */
export const dir = mkdtempSync(join(tmpdir(), 'linkgate-bundle-'));

/** Removes the entry-file folder. */
export function removeWorkDir(): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Bundles `source` with esbuild (browser, minified, ESM) and returns its minified and gzip -9 sizes in bytes. */
export async function gzipped(source: string, name: string): Promise<{ raw: number; gz: number }> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    absWorkingDir: root,
    nodePaths: [join(root, 'node_modules')],
  });
  const code = result.outputFiles[0]!.contents;
  return { raw: code.byteLength, gz: gzipSync(code, { level: 9 }).byteLength };
}
