// Checks the management tables of a snapshot with the rules the management API applies when a client creates the
// same rows (usernames, emails, passwords, domain URLs and hosts, pixel providers, QR content), plus what holds the
// tables together: unique ids below their counters, owners and plans that exist, keys and image tokens used once.
import type * as z from 'zod/mini';
import { PixelCreate } from '../../src/schemas/pixel.js';
import { USERNAME_PATTERN } from '../../src/schemas/primitives.js';
import { QR_DATA_BY_TYPE, QrCreate } from '../../src/schemas/qr.js';
import { isHttpUrl } from '../../src/schemas/rules.js';
import { RequestRejection } from '../http/responses.js';
import { parseWith } from '../management/request-validation.js';
import { hostKey, isValidEmail, isValidPassword } from '../management/rules.js';
import type {
  DomainRow,
  OverlayRow,
  PixelRow,
  PlanLimitsRow,
  PlanRow,
  QrRow,
  QrStatsRow,
  SplashRow,
  StoreSnapshot,
  TableName,
  UserRow,
} from '../management/store.js';
import { pixelTagKey } from '../management/store.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import {
  arrayOf,
  distinct,
  finite,
  flag,
  type Json,
  nullOr,
  objectWith,
  oneOf,
  text,
  whole,
} from './snapshot-fields.js';

const TABLES = ['users', 'domains', 'pixels', 'qrs', 'splash', 'overlays', 'plans'] as const satisfies TableName[];
const FEATURES = ['custom', 'multiple', 'alias', 'device', 'geo', 'bundle', 'parameters', 'export', 'api'] as const;
const COUNTED = ['team', 'splash', 'overlay', 'pixels', 'domain'] as const;
const TOP = ['topCountries', 'topReferrers', 'topBrowsers', 'topOs'] as const;

/** Reads and checks `value` as the store part of a snapshot at `at`; throws a GatewayInputError naming the field. */
export function readStoreSnapshot(value: unknown, at: string): StoreSnapshot {
  const store = objectWith(value, at, [...TABLES, 'nextIds']);
  const plans = arrayOf(store.plans, `${at}.plans`, readPlan);
  const planIds = ids(plans, `${at}.plans`);
  const users = arrayOf(store.users, `${at}.users`, (row, p) => readUser(row, p, planIds));
  checkUsers(users, `${at}.users`);
  const userIds = ids(users, `${at}.users`);
  const owned = <T extends { userId: number }>(name: TableName, read: (row: Json, at: string) => T): T[] => {
    const rows = arrayOf(store[name], `${at}.${name}`, (row, p) => {
      const fields = read(row as Json, p);
      if (!userIds.has(fields.userId)) throw new GatewayInputError(`${p}.userId`, 'names no user of store.users');
      return fields;
    });
    ids(rows as unknown as { id: number }[], `${at}.${name}`);
    return rows;
  };
  const snapshot: StoreSnapshot = {
    users,
    domains: owned('domains', readDomain),
    pixels: owned('pixels', readPixel),
    qrs: owned('qrs', readQr),
    splash: owned('splash', readSplash),
    overlays: owned('overlays', readOverlay),
    plans,
    nextIds: readCounters(store.nextIds, `${at}.nextIds`),
  };
  checkUniqueKeys(snapshot, at);
  for (const name of TABLES) {
    // A loop, not Math.max(...ids): a spread of 125,000 ids overflows the stack (issue 31).
    let top = 0;
    for (const row of snapshot[name]) if (row.id > top) top = row.id;
    if (snapshot.nextIds[name] <= top) {
      throw new GatewayInputError(`${at}.nextIds.${name}`, `must be above the highest id of store.${name} (${top})`);
    }
  }
  return snapshot;
}

/** The ids of `rows`, refusing a repeated one. */
function ids(rows: { id: number }[], at: string): Set<number> {
  return distinct(
    rows,
    (row) => row.id,
    (i) => `${at}[${i}].id`,
    'the id of another row',
  );
}

function readCounters(value: unknown, at: string): Record<TableName, number> {
  const row = objectWith(value, at, TABLES);
  return Object.fromEntries(TABLES.map((name) => [name, whole(row, name, at, 1)])) as Record<TableName, number>;
}

function readUser(value: unknown, at: string, planIds: Set<number>): UserRow {
  const row = objectWith(value, at, [
    'id',
    'username',
    'email',
    'password',
    'admin',
    'planid',
    'status',
    'expires',
    'registered',
    'avatar',
    'apikey',
  ]);
  const planid = nullOr(row, 'planid', at, whole);
  if (planid !== null && !planIds.has(planid))
    throw new GatewayInputError(`${at}.planid`, 'names no plan of store.plans');
  return {
    id: whole(row, 'id', at, 1),
    username: text(row, 'username', at, (v) =>
      USERNAME_PATTERN.test(v) ? undefined : 'must be 4 to 20 letters, digits or underscores',
    ),
    email: text(row, 'email', at, (v) => (isValidEmail(v) ? undefined : 'must be a valid email address')),
    password: text(row, 'password', at, (v) => (isValidPassword(v) ? undefined : 'must be at least 5 characters')),
    admin: flag(row, 'admin', at),
    planid,
    status: oneOf(row, 'status', at, ['free', 'pro']),
    expires: nullOr(row, 'expires', at, text),
    registered: text(row, 'registered', at),
    avatar: text(row, 'avatar', at),
    apikey: text(row, 'apikey', at, (v) =>
      v !== '' && !/\s/.test(v) ? undefined : 'must be a non-empty string without spaces',
    ),
  };
}

/** Usernames and emails unique without regard to case, keys unique: the rules of adding a user. */
function checkUsers(users: UserRow[], at: string): void {
  distinct(
    users,
    (u) => u.username.toLowerCase(),
    (i) => `${at}[${i}].username`,
    'taken by another user',
  );
  distinct(
    users,
    (u) => u.email.toLowerCase(),
    (i) => `${at}[${i}].email`,
    'taken by another user',
  );
  distinct(
    users,
    (u) => u.apikey,
    (i) => `${at}[${i}].apikey`,
    "another user's key",
  );
}

function checkUniqueKeys(snapshot: StoreSnapshot, at: string): void {
  distinct(
    snapshot.domains,
    (d) => hostKey(d.domain),
    (i) => `${at}.domains[${i}].domain`,
    'used by another domain',
  );
  const tag = (p: PixelRow) => pixelTagKey(p.userId, p.type, p.tag);
  distinct(snapshot.pixels, tag, (i) => `${at}.pixels[${i}].tag`, "the tag of the owner's other pixel of this type");
  distinct(
    snapshot.qrs,
    (q) => q.token,
    (i) => `${at}.qrs[${i}].token`,
    'the image token of another QR code',
  );
}

const optionalUrl = (rule: string) => (v: string) => (v === '' || isHttpUrl(v) ? undefined : rule);

function readDomain(value: unknown, at: string): DomainRow {
  const row = objectWith(value, at, ['id', 'userId', 'domain', 'redirectroot', 'redirect404', 'date']);
  return {
    id: whole(row, 'id', at, 1),
    userId: whole(row, 'userId', at, 1),
    domain: text(row, 'domain', at, (v) =>
      isHttpUrl(v) ? undefined : 'must be a valid domain URL such as https://go.example.com',
    ),
    redirectroot: text(row, 'redirectroot', at, optionalUrl('must be empty or a valid URL')),
    redirect404: text(row, 'redirect404', at, optionalUrl('must be empty or a valid URL')),
    date: text(row, 'date', at),
  };
}

function readPixel(value: unknown, at: string): PixelRow {
  const row = objectWith(value, at, ['id', 'userId', 'type', 'name', 'tag', 'date']);
  const body = checkWith(PixelCreate, { type: row.type, name: row.name, tag: row.tag }, at);
  return {
    id: whole(row, 'id', at, 1),
    userId: whole(row, 'userId', at, 1),
    type: body.type,
    name: body.name,
    tag: body.tag,
    date: text(row, 'date', at),
  };
}

function readQr(value: unknown, at: string): QrRow {
  const row = objectWith(value, at, [
    'id',
    'userId',
    'type',
    'data',
    'name',
    'background',
    'foreground',
    'logo',
    'token',
    'scans',
    'stats',
    'date',
  ]);
  const { type, data, background, foreground, logo } = row;
  // The usual row (no colours or logo) needs only its data's schema; anything else, or a failure, the whole body's
  // rules, which also name the field.
  const dataSchema = QR_DATA_BY_TYPE[type as keyof typeof QR_DATA_BY_TYPE];
  const plain =
    Object.hasOwn(QR_DATA_BY_TYPE, type as string) && background === null && foreground === null && logo === null;
  const quick = plain ? dataSchema.safeParse(data) : undefined;
  const body = quick?.success
    ? { type: type as QrRow['type'], data: quick.data as QrRow['data'] }
    : checkWith(QrCreate, { type, data, background, foreground, logo }, at);
  return {
    id: whole(row, 'id', at, 1),
    userId: whole(row, 'userId', at, 1),
    type: body.type,
    data: body.data,
    name: text(row, 'name', at),
    background: nullOr(row, 'background', at, text),
    foreground: nullOr(row, 'foreground', at, text),
    logo: nullOr(row, 'logo', at, text),
    token: text(row, 'token', at, (v) =>
      /^[0-9a-f]{1,64}$/.test(v) ? undefined : 'must be 1 to 64 lower-case hex characters',
    ),
    scans: whole(row, 'scans', at),
    stats: readStats(row.stats, `${at}.stats`),
    date: text(row, 'date', at),
  };
}

function readStats(value: unknown, at: string): QrStatsRow {
  const row = objectWith(value, at, ['clicks', 'uniqueClicks', ...TOP, 'socialCount']);
  const social = objectWith(row.socialCount, `${at}.socialCount`, ['facebook', 'twitter', 'instagram']);
  const counts = (name: (typeof TOP)[number]) => {
    const map = objectWith(row[name], `${at}.${name}`, Object.keys(row[name] ?? {}));
    return Object.fromEntries(Object.keys(map).map((key) => [key, text(map, key, `${at}.${name}`)]));
  };
  return {
    clicks: whole(row, 'clicks', at),
    uniqueClicks: whole(row, 'uniqueClicks', at),
    topCountries: counts('topCountries'),
    topReferrers: counts('topReferrers'),
    topBrowsers: counts('topBrowsers'),
    topOs: counts('topOs'),
    socialCount: {
      facebook: whole(social, 'facebook', `${at}.socialCount`),
      twitter: whole(social, 'twitter', `${at}.socialCount`),
      instagram: whole(social, 'instagram', `${at}.socialCount`),
    },
  };
}

function readSplash(value: unknown, at: string): SplashRow {
  const row = objectWith(value, at, ['id', 'userId', 'name', 'date']);
  return {
    id: whole(row, 'id', at, 1),
    userId: whole(row, 'userId', at, 1),
    name: text(row, 'name', at),
    date: text(row, 'date', at),
  };
}

function readOverlay(value: unknown, at: string): OverlayRow {
  const row = objectWith(value, at, ['id', 'userId', 'type', 'name', 'date']);
  return {
    id: whole(row, 'id', at, 1),
    userId: whole(row, 'userId', at, 1),
    type: text(row, 'type', at),
    name: text(row, 'name', at),
    date: text(row, 'date', at),
  };
}

function readPlan(value: unknown, at: string): PlanRow {
  const row = objectWith(value, at, ['id', 'name', 'free', 'prices', 'limits']);
  const prices = row.prices === null ? null : objectWith(row.prices, `${at}.prices`, ['monthly', 'yearly', 'lifetime']);
  return {
    id: whole(row, 'id', at, 1),
    name: text(row, 'name', at),
    free: flag(row, 'free', at),
    prices: prices && {
      monthly: finite(prices, 'monthly', `${at}.prices`),
      yearly: finite(prices, 'yearly', `${at}.prices`),
      lifetime: finite(prices, 'lifetime', `${at}.prices`),
    },
    limits: readLimits(row.limits, `${at}.limits`),
  };
}

function readLimits(value: unknown, at: string): PlanLimitsRow {
  const row = objectWith(value, at, ['links', 'clicks', 'retention', ...FEATURES, ...COUNTED]);
  const feature = (name: string) => ({
    enabled: oneOf(objectWith(row[name], `${at}.${name}`, ['enabled']), 'enabled', `${at}.${name}`, ['0', '1']),
  });
  const counted = (name: string) => {
    const f = objectWith(row[name], `${at}.${name}`, ['enabled', 'count']);
    return {
      enabled: oneOf(f, 'enabled', `${at}.${name}`, ['0', '1']),
      count: text(f, 'count', `${at}.${name}`, (v) =>
        /^\d{1,15}$/.test(v) ? undefined : 'must be a number written as a string',
      ),
    };
  };
  return {
    links: whole(row, 'links', at),
    clicks: whole(row, 'clicks', at),
    retention: whole(row, 'retention', at),
    ...(Object.fromEntries(FEATURES.map((name) => [name, feature(name)])) as Record<
      (typeof FEATURES)[number],
      { enabled: '0' | '1' }
    >),
    ...(Object.fromEntries(COUNTED.map((name) => [name, counted(name)])) as Record<
      (typeof COUNTED)[number],
      { enabled: '0' | '1'; count: string }
    >),
  };
}

/** Parses with the management API's own body schema; its first issue becomes a GatewayInputError under `at`. */
function checkWith<S extends z.ZodMiniType>(schema: S, input: unknown, at: string): z.output<S> {
  try {
    return parseWith(schema, input);
  } catch (error) {
    if (!(error instanceof RequestRejection)) throw error;
    const issue =
      (JSON.parse(error.response.body as string) as { issues?: string[] }).issues?.[0] ?? 'body: is invalid';
    const colon = issue.indexOf(': ');
    throw new GatewayInputError(`${at}.${issue.slice(0, colon)}`, issue.slice(colon + 2));
  }
}
