// Bundle sizes of the apps (bench/apps): esbuild (browser, minified), gzip -9, judged as `npm run size` judges them
// (#30: what linkgate adds to a host app already on ky + zod/mini, and standalone, each beside its floor, PASS/MISS),
// then what each part of the SDK costs in each SDK app: every part is bundled with a no-op stand-in in its place, the
// difference is its share. The parts are measured on the sources, which bundle to within 0.2 KB of the built entry.
import { appEntry, gzipped, removeWorkDir } from './support/app-bundle.js';
import { type FloorApp, kyAlone, kyAndEverySchema, kyAndOneSchema } from './support/floor-apps.js';
import { buildShippedEntries } from './support/package-build.js';
import { sizeBudgets } from './support/size-budgets.js';
import { measureBudget } from './support/size-figures.js';

const apps: { name: string; app: string; floor: FloorApp }[] = [
  { name: 'every resource called', app: 'every-resource', floor: kyAndEverySchema },
  { name: 'one call (account.get)', app: 'one-call', floor: kyAndOneSchema },
  { name: 'MessagingClient, messages.send', app: 'messaging', floor: kyAndOneSchema },
];

// Each part of the SDK and a stand-in that keeps the rest compiling but does nothing.
const parts: Record<string, Record<string, string>> = {
  // ky's part: an instance that hands its Request to the fetch it is given, and no network errors of its own.
  'ky (the transport calls are sent through)': {
    ky:
      'export default { create: () => (url, { fetch, method }) => fetch(new Request(url, { method })) };' +
      ' export const isNetworkError = () => false;',
  },
  'the rate limiter and its store': {
    'src/core/rate-limiter.ts':
      'export const readRateLimitHeaders = () => null; export const parseReset = () => null;' +
      ' export const rateLimitInfo = (seen) => seen;' +
      'export class RateLimiter { acquire() {} release() {} observe() {} async block() {} }',
    'src/core/rate-limit-store.ts': 'export class MemoryRateLimitStore {}',
  },
  'errors (classes, answer mapping)': {
    'src/core/errors.ts':
      'export class LinkgateError extends Error {} export class APIError extends LinkgateError {}' +
      ' export class AuthenticationError extends APIError {} export class PermissionDeniedError extends APIError {}' +
      ' export class NotFoundError extends APIError {} export class BadRequestError extends APIError {}' +
      ' export class RateLimitError extends APIError {} export class APIConnectionError extends LinkgateError {}' +
      ' export class APIConnectionTimeoutError extends APIConnectionError {}' +
      ' export class APIUserAbortError extends LinkgateError {} export class ResponseValidationError extends LinkgateError {}' +
      ' export class ValidationError extends LinkgateError {} export class ResponseTooLargeError extends LinkgateError {}' +
      ' export class CrossOriginRedirectError extends LinkgateError {}',
    'src/core/error-mapping.ts':
      'export const isRecord = () => false; export const bodyMessage = () => undefined; export const where = () => "";' +
      ' export const parseRetryAfter = () => 0; export const rateLimitErrorFrom = () => null;' +
      ' export const errorForStatus = () => null; export const unreadableBodyError = () => null;',
  },
  'request checks (validation messages)': {
    'src/core/validation.ts':
      'export const validate = (s, v) => v; export const validateId = (v) => v; export const describe = () => "";' +
      ' export const toIssues = () => []; export const valueAt = () => undefined; export const pathToString = () => "";' +
      ' export const expandUnion = () => [];',
  },
  hooks: {
    'src/core/hooks.ts':
      'export class HookFailure {} export class HookOverrun {} export const activeHooks = () => undefined;' +
      ' export const settleWithin = (work) => Promise.resolve(work);',
  },
  traces: {
    'src/core/traces.ts':
      'export const tracingChannels = () => null; export const channelsOf = () => null;' +
      ' export const startTrace = () => undefined; export const traceAttempt = () => undefined;',
  },
  'bounded body reads': {
    'src/core/response-body.ts':
      'export const DEFAULT_MAX_RESPONSE_BYTES = 1; export const discard = () => {};' +
      ' export const readBoundedText = (response) => response.text();',
  },
  pagination: { 'src/core/pagination.ts': 'export class Page {} export class PagePromise {}' },
  'the browser guard': {
    'src/core/runtime.ts':
      'export const readEnv = (name) => globalThis.process?.env?.[name]; export const assertServerSide = () => {};',
  },
  'the logger': {
    'src/core/logger.ts': "export const levelledLogger = () => ({}); export const redactHeaders = () => '';",
  },
};

const kb = (n: number) => (n / 1024).toFixed(1);

try {
  const shipped = await buildShippedEntries();
  for (const budget of sizeBudgets) {
    for (const { line } of await measureBudget(budget, shipped)) console.log(line);
  }
  console.log('');
  const floors = new Map<FloorApp, number>();
  for (const floor of [kyAlone, kyAndOneSchema, kyAndEverySchema]) {
    const { gz, raw } = await gzipped(floor.source, 'floor');
    floors.set(floor, gz);
    console.log(`floor  ${floor.name.padEnd(34)}: ${kb(gz)} KB gzip (${kb(raw)} KB min)`);
  }
  for (const { name, app, floor } of apps) {
    const source = appEntry(app);
    const ours = await gzipped(source, app);
    const floorGz = floors.get(floor)!;
    console.log(`\n${name}: ${kb(ours.gz)} KB gzip (${kb(ours.raw)} KB min)`);
    console.log(`  floor ${floor.name}: ${kb(floorGz)} KB; linkgate adds ${kb(ours.gz - floorGz)} KB`);
    let named = 0;
    for (const [part, standIns] of Object.entries(parts)) {
      // A stand-in the code has outgrown (a new export, a file gone) is reported, not a crash of the whole bench.
      const without = await gzipped(source, `${app}-without`, standIns).catch((error: Error) => error);
      if (without instanceof Error) {
        console.log(`  of which ${part}: not measured, its stand-in no longer fits: ${without.message.split('\n')[1]}`);
        continue;
      }
      named += ours.gz - without.gz;
      console.log(`  of which ${part}: ${kb(ours.gz - without.gz)} KB gzip`);
    }
    const bare = await gzipped(source, `${app}-bare`, Object.assign({}, ...Object.values(parts))).catch(
      () => undefined,
    );
    console.log(
      `  the parts above add up to ${kb(named)} KB; with all of them stubbed at once the app is ${bare ? kb(bare.gz) : 'not measured'} KB:`,
    );
    console.log(
      '    zod/mini, the schemas, the request loop (send, classify, retry, wait), the client and its resources',
    );
    console.log(`  ratio to floor ${(ours.gz / floorGz).toFixed(2)}x`);
  }
} finally {
  removeWorkDir();
}
