import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^linkgate\/webhooks$/, replacement: here('./src/webhooks/index.ts') },
      { find: /^linkgate\/mock$/, replacement: here('./mock/index.ts') },
      { find: /^linkgate\/schemas$/, replacement: here('./src/schemas/public-schemas.ts') },
      { find: /^linkgate\/redis$/, replacement: here('./src/redis/index.ts') },
      { find: /^linkgate$/, replacement: here('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Type-level tests (*.test-d.ts) run through tsc inside `npm test`, so a broken type assertion fails the run.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts', 'test/webhooks/event-catalog.test.ts', 'test/webhooks/handler-routing.test.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
