// Bundle size of an app that imports `Linkgate` and calls every resource: esbuild (browser, minified), gzip -9.
// Target <= 20 KB. The floor printed beside it is ky alone, bundled the same way in the same run; two more reference
// points show where the rest goes: ky plus the smallest zod/mini any schema needs, and ky plus the shared schemas.
import { join } from 'node:path';
import { appSource, gzipped, removeWorkDir, root } from './support/app-bundle.js';

const TARGET_KB = 20;

const floorApp = `import ky from 'ky'; export const main = () => ky.get('https://links.example.com/api/account').json();`;
// The least any zod/mini validation costs: objects, strings, numbers and safeParse.
const zodCoreApp = `
import ky from 'ky';
import * as z from 'zod/mini';
const schema = z.looseObject({ error: z.number(), data: z.object({ id: z.number(), name: z.string() }) });
export const main = async () => schema.safeParse(await ky.get('https://x.example').json());
`;
// What any client built on ky that validates with the shared schemas must ship: ky plus every schema it parses.
const schemasApp = `
import ky from 'ky';
import * as s from ${JSON.stringify(join(root, 'src/schemas/index.ts'))};
const all = [s.dataEnvelope(s.Account), s.AccountUpdate, s.pagedEnvelope(s.Domain, ['domains']), s.DomainCreate,
  s.DomainUpdate, s.pagedEnvelope(s.Splash, ['splash']), s.pagedEnvelope(s.Overlay, ['cta', 'overlay']),
  s.pagedEnvelope(s.Pixel, ['pixels']), s.PixelCreate, s.PixelUpdate, s.pagedEnvelope(s.Qr, ['qrs']), s.QrCreate,
  s.QrUpdate, s.QrDetailEnvelope, s.QrCreatedEnvelope, s.dataEnvelope(s.Plan), s.PlanSubscription, s.dataEnvelope(s.User),
  s.UserCreate, s.UserCreatedEnvelope, s.UserListQuery, s.PageQuery, s.MessageEnvelope, s.CreatedEnvelope];
export const main = async () => all.map((schema) => schema.safeParse(ky.get('https://x.example').json()));
`;

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
  const floor = await gzipped(floorApp, 'floor');
  const zodCore = await gzipped(zodCoreApp, 'zod-core');
  const schemas = await gzipped(schemasApp, 'schemas');
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
