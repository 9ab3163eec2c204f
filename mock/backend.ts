import { type Clock, systemClock } from '../src/shared/clock.js';
import { withoutTrailingSlashes } from '../src/shared/trailing-slashes.js';
import { controlGroup } from './control/control-routes.js';
import { faultControlGroup } from './control/fault-routes.js';
import { mediaGroup } from './control/media-routes.js';
import { stateControlGroup } from './control/state-routes.js';
import { FaultBook } from './faults/fault-book.js';
import { faultCatalogue } from './faults/fault-target.js';
import { Gateway, type GatewayOptions } from './gateway/gateway.js';
import { MockRouter } from './http/router.js';
import type { MockRequest, MockResponse } from './http/types.js';
import { bearerKey } from './management/auth.js';
import { managementGroup } from './management/group.js';
import { qrImageGroup } from './management/qr-image-route.js';
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimitOptions } from './management/rate-limit.js';
import { seedStore } from './management/seed.js';
import { MockStore, type StoreSnapshot } from './management/store.js';
import { type ProductionVariants, type ProductionVariantsOption, resolveVariants } from './management/variants.js';
import { messagingGroup } from './messaging/messaging-routes.js';
import { openApiGroup } from './openapi/openapi-document.js';
import { OPERATION_WORDS } from './openapi/operation-words.js';
import { cryptoRandom } from './shared/random-text.js';
import { type MockSnapshot, prepareRestore, takeSnapshot } from './state/mock-snapshot.js';

/** Options of a mock backend. */
export interface MockBackendOptions<C extends Clock = Clock> {
  /**
   * Where the API lives, e.g. `https://short.example`. msw handlers intercept only this origin + `/api/...`; a path
   * in it (`https://host/app`) prefixes the mock's own links (QR images).
   * @default any origin, paths `/api/...`
   */
  baseUrl?: string;
  /** Where time comes from (record dates, rate windows, subscription expiry). @default systemClock */
  clock?: C;
  /** Per-key rate limit of the management API; `false` turns it (and its headers) off. @default { limit: 30, windowMs: 60_000 } */
  rateLimit?: RateLimitOptions | false;
  /** Starting data: `empty` is the admin alone; `demo` adds users, records and plans. @default 'empty' */
  seed?: 'empty' | 'demo';
  /** The admin's API key. @default 32 hex characters from `random` */
  adminKey?: string;
  /**
   * Randomness for keys, tokens and secrets, as numbers in [0, 1). Pass a seeded generator only in tests that need
   * reproducible keys. @default the platform's cryptographic random source (`crypto.getRandomValues`)
   */
  random?: () => number;
  /** The messaging gateway: `messagingKey` to seed, `controlToken` of `/__mock/`, delivery `fetch`, `jitterMs`... */
  gateway?: GatewayOptions;
  /**
   * Behaviours of some production versions to reproduce (see {@link ProductionVariants}): `overlayCollection`,
   * `stringIds`, `negativeRemaining`, as a list of names or an object of flags. An unknown name is a TypeError.
   * @default none: the documented behaviour
   * @example
   * createMockBackend({ variants: ['overlayCollection', 'stringIds'] });
   */
  variants?: ProductionVariantsOption;
}

/** {@link MockBackendOptions} with defaults filled in. */
export interface ResolvedMockBackendOptions {
  /** See {@link MockBackendOptions.baseUrl}. */
  baseUrl: string | undefined;
  /** See {@link MockBackendOptions.clock}. */
  clock: Clock;
  /** See {@link MockBackendOptions.rateLimit}. */
  rateLimit: RateLimitOptions | false;
  /** See {@link MockBackendOptions.seed}. */
  seed: 'empty' | 'demo';
  /** See {@link MockBackendOptions.adminKey}. */
  adminKey: string | undefined;
  /** See {@link MockBackendOptions.random}. */
  random: () => number;
  /** See {@link MockBackendOptions.variants}; one flag per variant. */
  variants: ProductionVariants;
}

/** The runtime-neutral mock backend: routes light requests to the route groups over one in-memory store. */
export interface BackendCore<C extends Clock = Clock> {
  /** Answers one request; never throws. @internal */
  handle(req: MockRequest): Promise<MockResponse>;
  /** The in-memory tables. */
  readonly store: MockStore;
  /** The clock every time-dependent behaviour reads (typed as given, so a ManualClock's `advance` is at hand). */
  readonly clock: C;
  /** The admin user's API key. */
  readonly adminKey: string;
  /** The per-key limiter of the management API, undefined when `rateLimit: false`. @internal */
  readonly rateLimiter: RateLimiter | undefined;
  /** The router; add route groups (messaging, control) with `router.add(group)`. @internal */
  readonly router: MockRouter;
  /** The options in force. @internal */
  readonly options: ResolvedMockBackendOptions;
  /** The messaging gateway (mock/gateway, over mock/messaging and the engine in mock/delivery): keys, devices, delivery, simulators. */
  readonly gateway: Gateway<C>;
  /** Randomness for keys and tokens. */
  random(): number;
  /**
   * Faults of the management and messaging APIs (and the gateway's deliveries), armed in-process: what fails, how and
   * when, e.g. `backend.faults.add({ operation: 'listDomains', fault: 'status', status: 503 })`. The same faults as
   * `POST /__mock/faults` and `linkgate mock --faults plan.json`; `reset()` disarms them.
   */
  readonly faults: FaultBook;
  /** The base for absolute links the mock serves itself (QR images): the request's origin plus `baseUrl`'s path. @internal */
  linkBase(req: MockRequest): string;
  /** Back to the seeded state: same users, keys and records; rate windows and the gateway cleared. */
  reset(): void;
  /**
   * The whole state as one JSON-ready document with a format version (see {@link MockSnapshot} for what it holds and
   * what it leaves out): what `GET /__mock/snapshot` answers and `linkgate mock --state` writes. It holds secrets.
   */
  snapshot(): MockSnapshot;
  /**
   * Replaces the whole state with `snapshot` (from `snapshot()`, or parsed JSON of one), all or nothing: checked
   * first by the rules of the routes that create its rows; a {@link GatewayInputError} names the first wrong field
   * and nothing has changed. What was in progress (attempts, retries, rate windows) is dropped with the old state.
   */
  restore(snapshot: unknown): void;
  /**
   * Grows when a request that may change the state (any method but GET, HEAD and OPTIONS) starts and when it ends, on
   * every event the gateway publishes or dead-letters, and on reset and restore: compare two readings to know whether
   * a saved copy is stale. @internal
   */
  readonly changes: number;
}

/**
 * Builds the mock backend's core. Runtime-neutral: no msw, no `node:*`, so it runs in Node, browsers and workers;
 * `mock/index.ts` wraps it with `fetch` and msw handlers, `mock/adapters/node-server.ts` with `node:http`.
 *
 * @example
 * const core = createBackendCore({ seed: 'demo', clock: new ManualClock() });
 * const res = await core.handle({ method: 'GET', path: '/api/account', query: new URLSearchParams(),
 *   headers: { authorization: `Bearer ${core.adminKey}` }, body: undefined, origin: 'http://localhost' });
 */
export function createBackendCore<C extends Clock = Clock>(options: MockBackendOptions<C> = {}): BackendCore<C> {
  const resolved = resolveOptions(options);
  const store = new MockStore({ clock: resolved.clock, random: resolved.random });
  const seeded = seedStore(store, resolved);
  const snapshot: StoreSnapshot = store.snapshot();
  const rateLimiter = resolved.rateLimit ? new RateLimiter(resolved.clock, resolved.rateLimit) : undefined;
  const router = new MockRouter();
  const basePath = pathOf(resolved.baseUrl);
  const gateway = new Gateway(resolved.clock as C, () => resolved.random(), {
    ...options.gateway,
    perAttemptDeliveryIds: resolved.variants.perAttemptDeliveryIds || options.gateway?.perAttemptDeliveryIds,
  });

  const faults = new FaultBook({
    clock: resolved.clock,
    random: resolved.random,
    rateLimit: () => rateLimiter?.options.limit ?? DEFAULT_RATE_LIMIT.limit,
    rateWindowEnd: (authorization) => {
      const key = bearerKey(authorization);
      return key === undefined ? undefined : rateLimiter?.peek(key)?.resetAt;
    },
    tenantOf: (authorization) => gateway.keys.authenticate(authorization)?.tenant,
    delivery: gateway.faults,
    operations: faultCatalogue((id) => OPERATION_WORDS[id as keyof typeof OPERATION_WORDS].operationId),
  });
  router.intercept = faults.intercept;

  let adminKey = seeded.adminKey;
  let changes = 0;
  // Timers change state too: dead letters from the delivery engine, a device going OFFLINE when pairing times out
  // (every such change publishes an event).
  const changed = () => {
    changes++;
  };
  gateway.on('dead-lettered', changed);
  gateway.on('published', changed);
  const core: BackendCore<C> = {
    store,
    // Without a clock option this is systemClock, and C is its default, Clock.
    clock: resolved.clock as C,
    get adminKey() {
      return adminKey;
    },
    get changes() {
      return changes;
    },
    rateLimiter,
    router,
    options: resolved,
    gateway,
    random: resolved.random,
    faults,
    async handle(req) {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return router.dispatch(req);
      // Counted before and after: a copy saved while an awaiting handler (a fixture, a clock advance) is half done is
      // stale again once it finishes.
      changes++;
      try {
        return await router.dispatch(req);
      } finally {
        changes++;
      }
    },
    linkBase: (req) => `${req.origin}${basePath}`,
    reset() {
      store.restore(snapshot);
      rateLimiter?.clear();
      gateway.reset();
      faults.reset();
      adminKey = seeded.adminKey;
      changes++;
    },
    snapshot: () => takeSnapshot(core),
    restore(value) {
      prepareRestore(core, value)();
      // The banner's and describeCaller's admin: the restored state's first admin user, when it has one.
      adminKey = [...store.users.values()].find((u) => u.admin)?.apikey ?? adminKey;
      changes++;
    },
  };

  router.add(managementGroup(core));
  router.add(qrImageGroup(core));
  router.add(openApiGroup(core));
  // The gateway's groups: the messaging API (`/api/v1/...`), stored media and the control API (`/__mock/...`).
  router.add(messagingGroup(gateway));
  router.add(mediaGroup(gateway));
  router.add(controlGroup(gateway));
  router.add(stateControlGroup(core));
  router.add(faultControlGroup(core));
  return core;
}

function resolveOptions(options: MockBackendOptions<Clock>): ResolvedMockBackendOptions {
  const seed = options.seed ?? 'empty';
  if (seed !== 'empty' && seed !== 'demo') {
    throw new TypeError(`seed must be 'empty' or 'demo' (got ${JSON.stringify(seed)}).`);
  }
  if (
    options.adminKey !== undefined &&
    (typeof options.adminKey !== 'string' || options.adminKey === '' || /\s/.test(options.adminKey))
  ) {
    throw new TypeError('adminKey must be a non-empty string without spaces; omit it to have one generated.');
  }
  if (options.random !== undefined && typeof options.random !== 'function') {
    throw new TypeError(
      'random must be a function returning numbers in [0, 1), like Math.random; omit it for cryptographic randomness.',
    );
  }
  return {
    baseUrl: options.baseUrl,
    clock: options.clock ?? systemClock,
    rateLimit: options.rateLimit === false ? false : { ...DEFAULT_RATE_LIMIT, ...options.rateLimit },
    seed,
    adminKey: options.adminKey,
    random: options.random ?? cryptoRandom,
    variants: resolveVariants(options.variants),
  };
}

/** The path part of `baseUrl` without a trailing slash ('' for none). */
function pathOf(baseUrl: string | undefined): string {
  if (!baseUrl) return '';
  try {
    return withoutTrailingSlashes(new URL(baseUrl, 'http://localhost').pathname);
  } catch {
    return '';
  }
}
