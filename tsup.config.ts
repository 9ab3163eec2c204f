import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

// msw is an optional peer: the ESM build loads it with a caught top-level `await import('msw')`; CommonJS has no
// top-level await, so the CJS build takes the `require` twin of that one file instead.
const mswModuleForCjs: Plugin = {
  name: 'msw-module-for-cjs',
  setup(build) {
    // tsup builds CJS with splitting as ESM and converts it afterwards; its TSUP_FORMAT define says which it is.
    if (build.initialOptions.define?.TSUP_FORMAT !== '"cjs"') return;
    build.onResolve({ filter: /\/msw-module\.js$/ }, () => ({
      path: fileURLToPath(new URL('./mock/adapters/msw-module.cjs.ts', import.meta.url)),
    }));
  },
};

// qrcode is CommonJS. Bundled as is, esbuild's CommonJS wrapper would sit in a shared chunk that every entry, the SDK's
// too, imports; turned into ESM first, the wrapper stays inside the lazily loaded qrcode chunk of the mock.
const qrcodeCoreAsEsm: Plugin = {
  name: 'qrcode-core-as-esm',
  setup(build) {
    build.onLoad({ filter: /[\\/]qrcode[\\/]lib[\\/]core[\\/]qrcode\.js$/ }, async (args) => {
      const { outputFiles } = await build.esbuild.build({
        entryPoints: [args.path],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['main'],
        target: 'node22',
        logLevel: 'silent',
      });
      return { contents: outputFiles[0]!.text, loader: 'js' };
    });
  },
};

// dist/ is emptied by the build script, not here: the two configs build in parallel and a clean would race.
// No source maps: dist/ is unminified and keeps our names, so a stack trace into it reads as is; maps were two thirds of
// the package (README Decisions, Package).
// One build for the entries and the CLI; ESM first, CJS and .d.cts alongside for require() users.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      webhooks: 'src/webhooks/index.ts',
      // The `node` export condition's build of linkgate/webhooks: the same code (kept for apps that name the file).
      'webhooks.node': 'src/webhooks/index.node.ts',
      mock: 'mock/index.ts',
      schemas: 'src/schemas/public-schemas.ts',
    },
    format: ['esm', 'cjs'],
    // webhooks.node has the declarations of webhooks (package.json points both at them): one declaration of each name.
    dts: {
      entry: {
        index: 'src/index.ts',
        webhooks: 'src/webhooks/index.ts',
        mock: 'mock/index.ts',
        schemas: 'src/schemas/public-schemas.ts',
      },
    },
    target: 'node22',
    platform: 'neutral',
    splitting: true,
    treeshake: true,
    // Only ky and zod are installed with linkgate (msw is an optional peer): the mock's own dependencies (hono's
    // routers, qrcode's core, ulid, @noble/hashes) are bundled into its chunks, so an SDK-only app installs two packages.
    external: ['ky', 'zod', 'msw', /^node:/],
    noExternal: ['hono', 'qrcode', 'ulid', '@noble/hashes'],
    esbuildPlugins: [mswModuleForCjs, qrcodeCoreAsEsm],
  },
  {
    // linkgate/redis on its own: sharing the others' chunks, its types would pull the webhook dedupe types into a
    // declaration chunk, which the declaration bundler then breaks inside the WebhookTypes namespace. The few runtime
    // lines it shares (the in-memory rate-limit store it falls back to) are copied; its types are interfaces only.
    entry: { redis: 'src/redis/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node22',
    platform: 'neutral',
    treeshake: true,
    external: ['ky', 'zod', 'msw', 'redis', 'ioredis', /^node:/],
    // Its scripts' SHA-1 comes from node:crypto, named as such (Deno and Workers resolve only the prefixed name).
    removeNodeProtocol: false,
  },
  {
    // The CLI is self-contained (every package inlined): Node resolves no package files at launch. Its entry turns on
    // the compile cache, then loads the server; the trigger command and qrcode are split into chunks of their own
    // (dist/cli-chunks/), loaded only when used, so start-up compiles only what serving needs (issue 23). CommonJS
    // dependencies (qrcode) need a real `require` inside the ESM bundle.
    entry: { cli: 'mock/bin.ts' },
    format: ['esm'],
    splitting: true,
    esbuildOptions(options) {
      options.chunkNames = 'cli-chunks/[name]-[hash]';
    },
    target: 'node22',
    platform: 'node',
    noExternal: [/.*/],
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __linkgateCreateRequire } from 'node:module';\nconst require = __linkgateCreateRequire(import.meta.url);",
    },
  },
]);
