// Bundle size of an app that imports `Linkgate` and calls every resource: esbuild (browser, minified), gzip -9.
// Target <= 20 KB. The floor printed beside it is ky alone, bundled the same way in the same run; two more reference
// points show where the rest goes: ky plus the smallest zod/mini any schema needs, and ky plus the shared schemas.
import { appSource, gzipped, removeWorkDir } from './support/app-bundle.js';
import { kyAlone, kyAndEverySchema, kyAndOneSchema } from './support/floor-apps.js';

const TARGET_KB = 20;

// What three optional parts cost: each bundled with a no-op stand-in in its place, the difference is its share.
const optionalParts: Record<string, Record<string, string>> = {
  'the rate limiter and its store': {
    'src/core/rate-limiter.ts':
      'export const readRateLimitHeaders = () => null; export const parseReset = () => null;' +
      'export class RateLimiter { acquire() {} release() {} observe() {} async block() {} }',
    'src/core/rate-limit-store.ts': 'export class MemoryRateLimitStore {}',
  },
  'the browser guard': {
    'src/core/runtime.ts':
      'export const readEnv = (name) => globalThis.process?.env?.[name]; export const assertServerSide = () => {};',
  },
  'the logger': {
    'src/core/logger.ts': "export const levelledLogger = () => ({}); export const redactHeaders = () => '';",
  },
};

try {
  const floor = await gzipped(kyAlone.source, 'floor');
  const zodCore = await gzipped(kyAndOneSchema.source, 'zod-core');
  const schemas = await gzipped(kyAndEverySchema.source, 'schemas');
  const ours = await gzipped(appSource, 'app');
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(`floor  ky alone                 : ${kb(floor.gz)} KB gzip (${kb(floor.raw)} KB min)`);
  console.log(`ref    ky + zod/mini core       : ${kb(zodCore.gz)} KB gzip (${kb(zodCore.raw)} KB min)`);
  console.log(`ref    ky + the shared schemas  : ${kb(schemas.gz)} KB gzip (${kb(schemas.raw)} KB min)`);
  console.log(`the shared schemas add          : ${kb(schemas.gz - zodCore.gz)} KB gzip over the zod/mini core`);
  console.log(`linkgate's own code adds        : ${kb(ours.gz - schemas.gz)} KB gzip on top of that`);
  console.log(`linkgate, every resource called : ${kb(ours.gz)} KB gzip (${kb(ours.raw)} KB min)`);
  for (const [part, standIns] of Object.entries(optionalParts)) {
    const without = await gzipped(appSource, 'without', standIns);
    console.log(`  of which ${part}: ${kb(ours.gz - without.gz)} KB gzip`);
  }
  console.log(`ratio to floor: ${(ours.gz / floor.gz).toFixed(2)}x`);
  console.log(`size: ${kb(ours.gz)} KB (target <= ${TARGET_KB} KB) ${ours.gz <= TARGET_KB * 1024 ? 'PASS' : 'MISS'}`);
} finally {
  removeWorkDir();
}
