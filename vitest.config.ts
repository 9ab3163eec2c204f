import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The test files of these folders and everything under them: a new file in one of them joins its project by itself. */
const under = (...folders: string[]) => folders.map((folder) => `${folder}/**/*.test.ts`);

/**
 * The suite's projects, by folder (`npm run test:<name>` runs one; `npm test` runs them all). A test/architecture test
 * checks that every test file belongs to exactly one of them.
 */
export const PROJECTS = {
  /** In-process: the SDK against the mock, the mock, the webhook toolkit, what they share, the CLI's flags. The loop to run while coding. */
  unit: under('test/sdk', 'test/webhooks', 'test/shared', 'test/mock', 'test/architecture', 'test/drift'),
  /**
   * What users read, run as written: the README, the guides' numbers, the OpenAPI document, the examples. Every test
   * that holds docs against code lives under test/docs; its snippets/ run as programs in their own `node` processes,
   * so they go with e2e.
   */
  docs: [
    ...under('test/docs/readme', 'test/docs/guides', 'test/docs/openapi', 'test/docs/examples'),
    'examples/**/*.test.ts',
  ],
  /** Each user program and the CLI's server in its own `node` process, over loopback; the reliability suite at CI size. */
  e2e: under('test/e2e', 'test/docs/snippets', 'test/reliability'),
  /** Other environments: headless Chromium, Bun, Deno and workerd, a real redis-server, the packed tarball installed. */
  environments: under('test/browser', 'test/runtimes', 'test/redis', 'test/package'),
} as const;

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
    pool: 'forks',
    // Vitest's default on two cores is one worker; most files wait on sockets, timers and child processes, so two
    // run side by side even there.
    maxWorkers: Math.max(2, availableParallelism()),
    // Nothing may depend on a quiet machine: on a loaded one `node` takes seconds to start, and a hook that starts
    // redis-server or Chromium or packs the tarball takes far longer than the default 10 s. A hung hook still fails.
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [...PROJECTS.unit],
          testTimeout: 30_000,
          // These files share one module graph per worker instead of loading it again for each file; they stub
          // globals only through vi.stubGlobal and undo it. So a support module's top-level hooks would register in
          // the first file of a worker only: support code registers hooks inside the functions tests call
          // (useMockApi()), or the test cleans up itself.
          isolate: false,
          // Type-level tests (*.test-d.ts) run through tsc inside `npm test` and `npm run test:unit`, so a broken
          // type assertion fails the run.
          typecheck: {
            enabled: true,
            include: [
              'test/**/*.test-d.ts',
              'test/webhooks/event-catalog.test.ts',
              'test/webhooks/handler-routing.test.ts',
            ],
            tsconfig: './tsconfig.json',
          },
        },
      },
      { extends: true, test: { name: 'docs', include: [...PROJECTS.docs], testTimeout: 30_000 } },
      { extends: true, test: { name: 'e2e', include: [...PROJECTS.e2e], testTimeout: 120_000 } },
      { extends: true, test: { name: 'environments', include: [...PROJECTS.environments], testTimeout: 120_000 } },
    ],
  },
});
