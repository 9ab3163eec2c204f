// Builds the browser example (esbuild bundle + msw's worker script) and serves it on 127.0.0.1 (a secure context,
// so service workers run). Run: node --import tsx examples/browser/serve.ts [port]   then open the printed URL.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');

/** Bundles main.ts for the browser and copies index.html and msw's mockServiceWorker.js into `outDir`. */
export async function buildBrowserExample(outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(here, 'main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // tsconfig.json maps linkgate, linkgate/mock to the sources, as in the rest of the repository.
    tsconfig: join(root, 'tsconfig.json'),
    // linkgate/mock also exports the Node server (startMockServer); its node:* imports are unused here and tree-shaken.
    external: ['node:*'],
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  copyFileSync(join(here, 'index.html'), join(outDir, 'index.html'));
  const require = createRequire(import.meta.url);
  const mswRoot = join(require.resolve('msw/package.json'), '..');
  copyFileSync(join(mswRoot, 'lib', 'mockServiceWorker.js'), join(outDir, 'mockServiceWorker.js'));
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** A static file server for `dir` on 127.0.0.1; `requests` lists every path asked for (to prove what the worker caught). */
export async function serveDirectory(
  dir: string,
  port = 0,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    const file = normalize(join(dir, path === '/' ? 'index.html' : decodeURIComponent(path)));
    if (!file.startsWith(normalize(dir) + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${path}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = join(root, '.tmp', 'browser-example');
  await buildBrowserExample(out);
  const served = await serveDirectory(out, Number(process.argv[2] ?? 5173));
  console.log(`The browser example is at ${served.url} (Ctrl+C to stop)`);
}
