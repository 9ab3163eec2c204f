// Bundle sizes of the SDK's apps (bench/apps: every resource called, one management call, MessagingClient alone):
// esbuild (browser, minified), gzip -9, beside their floors bundled the same way in the same run, and what each part
// of the SDK costs in each: every part is bundled with a no-op stand-in in its place, the difference is its share.
// Targets of issue #23: every resource <= 22 KB, one call <= 18 KB, messaging only <= 16 KB. `npm run size` measures
// the same apps against the built entry; the parts are measured on the sources, which bundle to within 0.2 KB of it.
import { appEntry, gzipped, removeWorkDir } from './support/app-bundle.js';
import { type FloorApp, kyAlone, kyAndEverySchema, kyAndOneSchema } from './support/floor-apps.js';

const apps: { name: string; app: string; targetKb: number; floor: FloorApp }[] = [
  { name: 'every resource called', app: 'every-resource', targetKb: 22, floor: kyAndEverySchema },
  { name: 'one call (account.get)', app: 'one-call', targetKb: 18, floor: kyAndOneSchema },
  { name: 'MessagingClient, messages.send', app: 'messaging', targetKb: 16, floor: kyAndOneSchema },
];

// Each part of the SDK and a stand-in that keeps the rest compiling but does nothing.
const parts: Record<string, Record<string, string>> = {
  'the transport (its own, in place of ky)': {
    'src/core/transport.ts':
      'export const exchange = (url, { fetch }) => fetch(new Request(url)); export const isNetworkError = () => false;',
  },
  'the rate limiter and its store': {
    'src/core/rate-limiter.ts':
      'export const readRateLimitHeaders = () => null; export const parseReset = () => null;' +
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
  const floors = new Map<FloorApp, number>();
  for (const floor of [kyAlone, kyAndOneSchema, kyAndEverySchema]) {
    const { gz, raw } = await gzipped(floor.source, 'floor');
    floors.set(floor, gz);
    console.log(`floor  ${floor.name.padEnd(34)}: ${kb(gz)} KB gzip (${kb(raw)} KB min)`);
  }
  for (const { name, app, targetKb, floor } of apps) {
    const source = appEntry(app);
    const ours = await gzipped(source, app);
    const floorGz = floors.get(floor)!;
    console.log(`\n${name}: ${kb(ours.gz)} KB gzip (${kb(ours.raw)} KB min)`);
    console.log(`  floor ${floor.name}: ${kb(floorGz)} KB; linkgate adds ${kb(ours.gz - floorGz)} KB`);
    let named = 0;
    for (const [part, standIns] of Object.entries(parts)) {
      const without = await gzipped(source, `${app}-without`, standIns);
      named += ours.gz - without.gz;
      console.log(`  of which ${part}: ${kb(ours.gz - without.gz)} KB gzip`);
    }
    const bare = await gzipped(source, `${app}-bare`, Object.assign({}, ...Object.values(parts)));
    console.log(
      `  the parts above add up to ${kb(named)} KB; with all of them stubbed at once the app is ${kb(bare.gz)} KB:`,
    );
    console.log(
      '    zod/mini, the schemas, the request loop (send, classify, retry, wait), the client and its resources',
    );
    const pass = ours.gz <= targetKb * 1024;
    console.log(
      `  ratio to floor ${(ours.gz / floorGz).toFixed(2)}x; size: ${kb(ours.gz)} KB (target <= ${targetKb} KB) ${pass ? 'PASS' : 'MISS'}`,
    );
  }
} finally {
  removeWorkDir();
}
