import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { beforeAll, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../../mock/backend.ts', import.meta.url));

let inputs: Metafile['inputs'];

beforeAll(async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    external: ['qrcode'],
    logLevel: 'silent',
  });
  inputs = result.metafile.inputs;
});

it('bundles the backend core for browsers without msw or node:* modules', () => {
  expect(Object.keys(inputs).filter((p) => p.includes('node_modules/msw'))).toEqual([]);
  const imports = Object.values(inputs).flatMap((i) => i.imports.map((x) => x.path));
  expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
});

it('loads qrcode anywhere in the backend (QR image route and pairing frames) only through the PNG writer, on demand', () => {
  // Only its pure core: the package's main entry pulls Node-only renderers into the bundled mock.
  const qrcodeImports = Object.entries(inputs).flatMap(([path, input]) =>
    input.imports.filter((i) => i.path.startsWith('qrcode')).map((i) => [path, i.path, i.kind]),
  );
  expect(qrcodeImports).toEqual([['mock/shared/qr-png.ts', 'qrcode/lib/core/qrcode.js', 'dynamic-import']]);
});
