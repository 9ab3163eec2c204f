import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { describeRun, runProgram } from './support/processes.js';

// A project that installed linkgate but not msw (an optional peer): a resolve hook makes `msw` unresolvable, as in a
// node_modules without it, and the program imports linkgate/mock the way such a user does.
const WITHOUT_MSW = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'msw' || specifier.startsWith('msw/')) {
      throw Object.assign(new Error("Cannot find package 'msw'"), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return next(specifier, context);
  },
});
`;

describe('linkgate/mock without msw installed', () => {
  it('serves startMockServer and backend.fetch, and backend.handlers says to install msw', async () => {
    const result = await runProgram(
      {
        source: `${WITHOUT_MSW}
const { createMockBackend, startMockServer } = await import('linkgate/mock');
const server = await startMockServer({ seed: 'demo' });
const res = await fetch(server.url + '/api/account', { headers: { authorization: 'Bearer ' + server.backend.adminKey } });
console.log('server', res.status);
await server.close();
const backend = createMockBackend();
console.log('fetch', (await backend.fetch('/api/account', { headers: { authorization: 'Bearer ' + backend.adminKey } })).status);
try {
  backend.handlers;
  console.log('handlers built');
} catch (error) {
  console.log('handlers:', error.message);
}
`,
      },
      { timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('server 200');
    expect(result.stdout).toContain('fetch 200');
    expect(result.stdout).toMatch(/handlers: .*npm install -D msw/);
  });
});

describe('the linkgate mock command', () => {
  it('bundles without msw: the CLI serves the core over node:http only', async () => {
    // The same self-contained bundle tsup.config.ts builds for dist/cli.js: every package inlined.
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../mock/cli.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('mock/cli.ts'))).toBe(true);
    expect(inputs.filter((file) => /node_modules\/msw\/|mock\/adapters\/msw/.test(file))).toEqual([]);
  });
});
