import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^linkgate\/webhooks$/, replacement: here('./src/webhooks/index.ts') },
      { find: /^linkgate\/mock$/, replacement: here('./mock/index.ts') },
      { find: /^linkgate$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
