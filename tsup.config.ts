import { defineConfig } from 'tsup';

// dist/ is emptied by the build script, not here: the two configs build in parallel and a clean would race.
// One build for the three entries and the CLI; ESM first, CJS and .d.cts alongside for require() users.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', webhooks: 'src/webhooks/index.ts', mock: 'mock/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    platform: 'neutral',
    splitting: true,
    treeshake: true,
    external: ['ky', 'zod', 'msw', 'hono', 'qrcode', 'ulid', /^node:/],
  },
  {
    // The CLI is one self-contained file: start-up to first answer stays well under 300 ms because Node resolves
    // no package files at launch. CommonJS dependencies (qrcode) need a real `require` inside the ESM bundle.
    entry: { cli: 'mock/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    platform: 'node',
    noExternal: [/.*/],
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __linkgateCreateRequire } from 'node:module';\nconst require = __linkgateCreateRequire(import.meta.url);",
    },
  },
]);
