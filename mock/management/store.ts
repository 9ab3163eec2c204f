import type { QrData, QrType } from '../../src/schemas/qr.js';
import type { Clock } from '../../src/shared/clock.js';
import { randomHex } from '../shared/random-text.js';
import { formatDate } from './calendar.js';
import { IndexedTable } from './indexed-table.js';
import { hostKey } from './rules.js';

/** A user as the mock stores it. `apikey` and `password` are secrets: they never appear in error messages. */
export interface UserRow {
  id: number;
  username: string;
  email: string;
  password: string;
  admin: boolean;
  planid: number | null;
  status: 'free' | 'pro';
  expires: string | null;
  registered: string;
  avatar: string;
  apikey: string;
}

/** A branded domain; `userId` is its owner. Unset redirects are empty strings, as the service's documentation types them as strings. */
export interface DomainRow {
  id: number;
  userId: number;
  domain: string;
  redirectroot: string;
  redirect404: string;
  date: string;
}

/** A tracking pixel. */
export interface PixelRow {
  id: number;
  userId: number;
  type: string;
  name: string;
  tag: string;
  date: string;
}

/** Statistics of a QR code; top-N maps hold counts as strings, as production sends them. */
export interface QrStatsRow {
  clicks: number;
  uniqueClicks: number;
  topCountries: Record<string, string>;
  topReferrers: Record<string, string>;
  topBrowsers: Record<string, string>;
  topOs: Record<string, string>;
  socialCount: { facebook: number; twitter: number; instagram: number };
}

/** A QR code. `token` names its PNG (see qr-image-route.ts), so image links are not guessable from ids. */
export interface QrRow {
  id: number;
  userId: number;
  type: QrType;
  data: QrData;
  name: string;
  background: string | null;
  foreground: string | null;
  logo: string | null;
  token: string;
  scans: number;
  stats: QrStatsRow;
  date: string;
}

/** A custom splash page (list fields only; the service's documentation shows no more). */
export interface SplashRow {
  id: number;
  userId: number;
  name: string;
  date: string;
}

/** A call-to-action overlay (list fields only). */
export interface OverlayRow {
  id: number;
  userId: number;
  type: string;
  name: string;
  date: string;
}

/** A feature switch of a plan: `enabled` is `"0"` or `"1"`. */
export interface PlanFeature {
  enabled: '0' | '1';
}

/** A counted feature of a plan: `count` is a number written as a string. */
export interface PlanCountedFeature extends PlanFeature {
  count: string;
}

/** Plan limits as the service's documentation lists them. */
export interface PlanLimitsRow {
  links: number;
  clicks: number;
  retention: number;
  custom: PlanFeature;
  multiple: PlanFeature;
  alias: PlanFeature;
  device: PlanFeature;
  geo: PlanFeature;
  bundle: PlanFeature;
  parameters: PlanFeature;
  export: PlanFeature;
  api: PlanFeature;
  team: PlanCountedFeature;
  splash: PlanCountedFeature;
  overlay: PlanCountedFeature;
  pixels: PlanCountedFeature;
  domain: PlanCountedFeature;
}

/** A subscription plan. */
export interface PlanRow {
  id: number;
  name: string;
  free: boolean;
  prices: { monthly: number; yearly: number; lifetime: number } | null;
  limits: PlanLimitsRow;
}

/** Fields of {@link MockStore.addUser}. */
export interface NewUser {
  username: string;
  email: string;
  /** @default 'password' */
  password?: string;
  /** @default false */
  admin?: boolean;
  /** @default null */
  planid?: number | null;
  /** @default 'free' */
  status?: 'free' | 'pro';
  /** @default null */
  expires?: string | null;
  /** The user's API key. @default 32 hex characters from the backend's `random` */
  apikey?: string;
}

/** Fields of {@link MockStore.addQr}. */
export interface NewQr {
  type: QrType;
  data: QrData;
  /** @default `QR code #<id>` */
  name?: string;
  /** @default null */
  background?: string | null;
  /** @default null */
  foreground?: string | null;
  /** @default null */
  logo?: string | null;
  /** @default 0 */
  scans?: number;
  /** @default empty statistics */
  stats?: Partial<QrStatsRow>;
}

/** A plan as {@link MockStore.addPlan} takes it; limits default to a closed free plan. */
export interface NewPlan {
  name: string;
  /** @default true */
  free?: boolean;
  /** @default null */
  prices?: PlanRow['prices'];
  /** @default all features off, zero quotas */
  limits?: Partial<PlanLimitsRow>;
}

/** Everything the store holds, as plain data (what {@link MockStore.snapshot} returns). */
export interface StoreSnapshot {
  users: UserRow[];
  domains: DomainRow[];
  pixels: PixelRow[];
  qrs: QrRow[];
  splash: SplashRow[];
  overlays: OverlayRow[];
  plans: PlanRow[];
  nextIds: Record<TableName, number>;
}

/** The store's tables, each with its own id counter. */
export type TableName = 'users' | 'domains' | 'pixels' | 'qrs' | 'splash' | 'overlays' | 'plans';

/** What the store needs from its backend: a clock for record dates and randomness for keys and tokens. */
export interface StoreEnv {
  clock: Clock;
  random: () => number;
}

/** Statistics of a code nobody has scanned yet. */
export function emptyStats(): QrStatsRow {
  return {
    clicks: 0,
    uniqueClicks: 0,
    topCountries: {},
    topReferrers: {},
    topBrowsers: {},
    topOs: {},
    socialCount: { facebook: 0, twitter: 0, instagram: 0 },
  };
}

const closedFeature = (): PlanFeature => ({ enabled: '0' });
const closedCount = (): PlanCountedFeature => ({ enabled: '0', count: '0' });

/** Limits of a plan with every feature off, the base {@link MockStore.addPlan} fills in. */
export function closedLimits(): PlanLimitsRow {
  return {
    links: 0,
    clicks: 0,
    retention: 0,
    custom: closedFeature(),
    multiple: closedFeature(),
    alias: closedFeature(),
    device: closedFeature(),
    geo: closedFeature(),
    bundle: closedFeature(),
    parameters: closedFeature(),
    export: closedFeature(),
    api: closedFeature(),
    team: closedCount(),
    splash: closedCount(),
    overlay: closedCount(),
    pixels: closedCount(),
    domain: closedCount(),
  };
}

/**
 * The mock's in-memory tables, one set per backend. Rows are plain objects in Maps keyed by id; ids count up per
 * table from 1 and are never reused, as in a database.
 *
 * @example
 * const bob = backend.store.addUser({ username: 'bobby', email: 'bob@example.com' });
 * backend.store.addDomain(bob.id, { domain: 'https://go.bob.example' });
 */
export class MockStore {
  /** Users by id; also by `apikey`, and by `username` and `email` lower-cased. */
  readonly users = new IndexedTable<UserRow, 'apikey' | 'username' | 'email'>({
    apikey: (u) => u.apikey,
    username: (u) => u.username.toLowerCase(),
    email: (u) => u.email.toLowerCase(),
  });
  /** Branded domains by id; also by owner and by host (lower-cased, without port or trailing dot). */
  readonly domains = new IndexedTable<DomainRow, 'owner' | 'host'>({ owner, host: (d) => hostKey(d.domain) });
  /** Pixels by id; also by owner and by owner, provider and tag (what makes a pixel a duplicate). */
  readonly pixels = new IndexedTable<PixelRow, 'owner' | 'tag'>({
    owner,
    tag: (p) => pixelTagKey(p.userId, p.type, p.tag),
  });
  /** QR codes by id; also by owner and by image token. */
  readonly qrs = new IndexedTable<QrRow, 'owner' | 'token'>({ owner, token: (q) => q.token });
  /** Splash pages by id; also by owner. */
  readonly splash = new IndexedTable<SplashRow, 'owner'>({ owner });
  /** Overlays by id; also by owner. */
  readonly overlays = new IndexedTable<OverlayRow, 'owner'>({ owner });
  /** Plans by id. */
  readonly plans = new Map<number, PlanRow>();

  readonly #env: StoreEnv;
  #nextIds: Record<TableName, number> = freshCounters();

  constructor(env: StoreEnv) {
    this.#env = env;
  }

  /** The current time as a record date. */
  now(): string {
    return formatDate(this.#env.clock.now());
  }

  /** 32 lower-case hex characters from the backend's `random`: the shape of a management API key. */
  generateKey(): string {
    for (;;) {
      const key = this.#hex(32);
      if (!this.users.firstBy('apikey', key)) return key;
    }
  }

  /** Adds a user with a generated API key (unless `apikey` is given) and returns the stored row. */
  addUser(input: NewUser): UserRow {
    const id = this.#nextId('users');
    const row: UserRow = {
      id,
      username: input.username,
      email: input.email,
      password: input.password ?? 'password',
      admin: input.admin ?? false,
      planid: input.planid ?? null,
      status: input.status ?? 'free',
      expires: input.expires ?? null,
      registered: this.now(),
      avatar: `https://www.gravatar.com/avatar/${encodeURIComponent(input.username)}?d=identicon`,
      apikey: input.apikey ?? this.generateKey(),
    };
    this.users.set(id, row);
    return row;
  }

  /** Adds a branded domain owned by `userId`. */
  addDomain(userId: number, input: { domain: string; redirectroot?: string; redirect404?: string }): DomainRow {
    this.#requireUser(userId);
    const row: DomainRow = {
      id: this.#nextId('domains'),
      userId,
      domain: input.domain,
      redirectroot: input.redirectroot ?? '',
      redirect404: input.redirect404 ?? '',
      date: this.now(),
    };
    this.domains.set(row.id, row);
    return row;
  }

  /** Adds a pixel owned by `userId`. */
  addPixel(userId: number, input: { type: string; name: string; tag: string }): PixelRow {
    this.#requireUser(userId);
    const row: PixelRow = {
      id: this.#nextId('pixels'),
      userId,
      ...pick(input, 'type', 'name', 'tag'),
      date: this.now(),
    };
    this.pixels.set(row.id, row);
    return row;
  }

  /** Adds a QR code owned by `userId`, with an image token and (unless given) empty statistics. */
  addQr(userId: number, input: NewQr): QrRow {
    this.#requireUser(userId);
    const id = this.#nextId('qrs');
    const row: QrRow = {
      id,
      userId,
      type: input.type,
      data: input.data,
      name: input.name ?? `QR code #${id}`,
      background: input.background ?? null,
      foreground: input.foreground ?? null,
      logo: input.logo ?? null,
      token: this.#uniqueToken(),
      scans: input.scans ?? input.stats?.clicks ?? 0,
      stats: { ...emptyStats(), ...input.stats },
      date: this.now(),
    };
    this.qrs.set(id, row);
    return row;
  }

  /** Adds a splash page owned by `userId`. */
  addSplash(userId: number, input: { name: string }): SplashRow {
    this.#requireUser(userId);
    const row: SplashRow = { id: this.#nextId('splash'), userId, name: input.name, date: this.now() };
    this.splash.set(row.id, row);
    return row;
  }

  /** Adds a call-to-action overlay owned by `userId`. */
  addOverlay(userId: number, input: { type: string; name: string }): OverlayRow {
    this.#requireUser(userId);
    const row: OverlayRow = {
      id: this.#nextId('overlays'),
      userId,
      type: input.type,
      name: input.name,
      date: this.now(),
    };
    this.overlays.set(row.id, row);
    return row;
  }

  /** Adds a plan; missing limits are closed (off / zero). */
  addPlan(input: NewPlan): PlanRow {
    const row: PlanRow = {
      id: this.#nextId('plans'),
      name: input.name,
      free: input.free ?? true,
      prices: input.prices ?? null,
      limits: { ...closedLimits(), ...input.limits },
    };
    this.plans.set(row.id, row);
    return row;
  }

  /** Deletes a user and everything they own. Returns false when there was no such user. */
  deleteUser(id: number): boolean {
    if (!this.users.delete(id)) return false;
    const tables = [this.domains, this.pixels, this.qrs, this.splash, this.overlays] as unknown as OwnedTable[];
    for (const table of tables) for (const row of table.findBy('owner', String(id))) table.delete(row.id);
    return true;
  }

  /** The QR code whose image token is `token`. */
  qrByToken(token: string): QrRow | undefined {
    return this.qrs.firstBy('token', token);
  }

  /** The branded domain (anyone's) whose host is the host of `url`, compared without case, port or trailing dot. */
  domainByHost(url: string): DomainRow | undefined {
    return this.domains.firstBy('host', hostKey(url));
  }

  /** The user's pixel of this provider with this tag. */
  pixelByTag(userId: number, type: string, tag: string): PixelRow | undefined {
    return this.pixels.firstBy('tag', pixelTagKey(userId, type, tag));
  }

  /** The user with this username, compared without case. */
  userByUsername(username: string): UserRow | undefined {
    return this.users.firstBy('username', username.toLowerCase());
  }

  /** The user with this email, compared without case. */
  userByEmail(email: string): UserRow | undefined {
    return this.users.firstBy('email', email.toLowerCase());
  }

  /** A deep copy of every table, for {@link restore} and for tests asserting that nothing changed. */
  snapshot(): StoreSnapshot {
    return structuredClone({
      users: [...this.users.values()],
      domains: [...this.domains.values()],
      pixels: [...this.pixels.values()],
      qrs: [...this.qrs.values()],
      splash: [...this.splash.values()],
      overlays: [...this.overlays.values()],
      plans: [...this.plans.values()],
      nextIds: this.#nextIds,
    });
  }

  /** Replaces every table with a copy of `snapshot`. */
  restore(snapshot: StoreSnapshot): void {
    this.adopt(structuredClone(snapshot));
  }

  /**
   * Replaces every table with the rows of `snapshot` themselves, not copies: for rows built for this store alone (a
   * checked state snapshot), where {@link restore}'s deep copy would double the cost of a large restore.
   */
  adopt(snapshot: StoreSnapshot): void {
    refill(this.users, snapshot.users);
    refill(this.domains, snapshot.domains);
    refill(this.pixels, snapshot.pixels);
    refill(this.qrs, snapshot.qrs);
    refill(this.splash, snapshot.splash);
    refill(this.overlays, snapshot.overlays);
    refill(this.plans, snapshot.plans);
    this.#nextIds = { ...snapshot.nextIds };
  }

  /** Where the id counters stand now: what {@link removeAddedSince} takes to undo the adds made after it. */
  addMark(): Readonly<Record<TableName, number>> {
    return { ...this.#nextIds };
  }

  /**
   * Removes every row added since `mark` (from {@link addMark}) and winds the id counters back: an undo for a run of
   * adds that costs the rows added, not a copy of every table as {@link snapshot} and {@link restore} do. Rows changed
   * or deleted in the meantime are not put back.
   */
  removeAddedSince(mark: Readonly<Record<TableName, number>>): void {
    const tables: Record<TableName, Map<number, unknown>> = {
      users: this.users,
      domains: this.domains,
      pixels: this.pixels,
      qrs: this.qrs,
      splash: this.splash,
      overlays: this.overlays,
      plans: this.plans,
    };
    for (const name of Object.keys(tables) as TableName[]) {
      const table = tables[name];
      // Ids given by a fixture (giveId) may leave a wide gap: then the rows are fewer than the ids to try.
      if (this.#nextIds[name] - mark[name] > table.size) {
        for (const id of [...table.keys()]) if (id >= mark[name]) table.delete(id);
      } else for (let id = mark[name]; id < this.#nextIds[name]; id++) table.delete(id);
    }
    this.#nextIds = { ...mark };
  }

  /**
   * Gives the row just added as `from` the id `to` (a fixture keeping a recording's ids); the table's next id moves
   * past it. `to` must be free and at least the next id {@link addMark} took, so {@link removeAddedSince} undoes it.
   */
  giveId(table: 'users' | 'domains' | 'pixels' | 'qrs', from: number, to: number): void {
    const rows = this[table] as unknown as Map<number, { id: number }>;
    const row = rows.get(from);
    if (!row || rows.has(to)) throw new Error(`No ${table} row ${from}, or ${to} is taken.`);
    rows.delete(from);
    row.id = to;
    rows.set(to, row);
    if (this.#nextIds[table] <= to) this.#nextIds[table] = to + 1;
  }

  #nextId(table: TableName): number {
    const id = this.#nextIds[table];
    this.#nextIds[table] = id + 1;
    return id;
  }

  #requireUser(userId: number): void {
    if (!this.users.has(userId)) throw new Error(`No user with id ${userId}; add the user with store.addUser() first.`);
  }

  #uniqueToken(): string {
    for (;;) {
      const token = this.#hex(20);
      if (!this.qrByToken(token)) return token;
    }
  }

  #hex(length: number): string {
    return randomHex(length, () => this.#env.random());
  }
}

const owner = (row: { userId: number }) => String(row.userId);

/** Any table of rows that belong to a user, seen through its owner index. */
type OwnedTable = IndexedTable<{ id: number; userId: number }, 'owner'>;

/** The key that makes two pixels duplicates: the same owner, provider and tag. */
export function pixelTagKey(userId: number, type: string, tag: string): string {
  return JSON.stringify([userId, type, tag]);
}

function freshCounters(): Record<TableName, number> {
  return { users: 1, domains: 1, pixels: 1, qrs: 1, splash: 1, overlays: 1, plans: 1 };
}

function refill<T extends { id: number }>(table: Map<number, T>, rows: T[]): void {
  table.clear();
  for (const row of rows) table.set(row.id, row);
}

function pick<T extends object, K extends keyof T>(source: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = source[key];
  return out;
}
