import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../../mock/backend.ts', import.meta.url));

it('bundles the backend core for browsers without msw, node:* modules or a static qrcode import', async () => {
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
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((p) => p.includes('node_modules/msw'))).toEqual([]);
  const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
  expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
});

it('loads qrcode in the management core only through a dynamic import in the image route', async () => {
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
  // The gateway's pairing simulator (mock/gateway) is another engineer's module and is checked there.
  const mine = Object.entries(result.metafile.inputs).filter(([path]) =>
    /^mock\/(?!gateway|messaging|control)/.test(path),
  );
  const qrcodeImports = mine.flatMap(([path, input]) =>
    input.imports.filter((i) => i.path === 'qrcode').map((i) => [path, i.kind]),
  );
  expect(qrcodeImports).toEqual([['mock/qr-image.ts', 'dynamic-import']]);
});
