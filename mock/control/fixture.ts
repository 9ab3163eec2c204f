// Loads a JSON fixture of users, domains, pixels, QR codes and devices in one step, all or nothing. Domains, pixels and
// QR codes go through the management API's own routes (as their owner, past the rate limit), so a fixture obeys
// exactly the rules a client would meet; users are added with the API's own rules plus a chosen key.
import { USERNAME_PATTERN } from '../../src/schemas/primitives.js';
import { RequestRejection } from '../http/responses.js';
import type { Route } from '../http/router.js';
import type { MockResponse } from '../http/types.js';
import type { ManagementContext } from '../management/route-context.js';
import { isValidEmail, isValidPassword } from '../management/rules.js';
import { PRODUCTION_VARIANT_NAMES, type ProductionVariants, resolveVariants } from '../management/variants.js';
import { type Device, type DeviceInput, DeviceRegistry } from '../messaging/device-registry.js';
import { checkedUnder, GatewayInputError } from '../shared/gateway-input-error.js';
import type { StateHost } from './state-host.js';

/** The tables a fixture may fill, in the order they are loaded. */
export const FIXTURE_TABLES = ['users', 'domains', 'pixels', 'qrs', 'devices'] as const;

/** Where each owned table's rows are created: the management route a client would call. */
const CREATE_ROUTES = { domains: '/api/domain/add', pixels: '/api/pixel/add', qrs: '/api/qr/add' } as const;

/** What a loaded fixture created, with the ids (and users' keys) a test in another language needs next. */
export interface FixtureResult {
  users: { id: number; username: string; apikey: string; admin: boolean }[];
  domains: { id: number; owner: string }[];
  pixels: { id: number; owner: string }[];
  qrs: { id: number; owner: string; link: string | undefined }[];
  devices: Device[];
}

/**
 * Loads `fixture` into the backend, or throws a {@link GatewayInputError} naming the first bad field
 * (`domains[1].domain`) and its rule; then nothing stored has changed. `origin` is where links in the answer point.
 *
 * @example
 * loadFixture(core, { users: [{ username: 'carol', email: 'carol@example.com', password: 'secret1' }],
 *   domains: [{ owner: 'carol', domain: 'https://go.carol.example' }] });
 */
export async function loadFixture(
  core: StateHost,
  fixture: Record<string, unknown>,
  origin = core.gateway.publicOrigin,
): Promise<FixtureResult> {
  for (const name of Object.keys(fixture)) {
    if (name === FIXTURE_VARIANTS_KEY) {
      checkRunningVariants(core.options.variants, fixture[name]);
      continue;
    }
    if (!(FIXTURE_TABLES as readonly string[]).includes(name)) {
      throw new GatewayInputError(name, `is not a fixture table; the tables are ${FIXTURE_TABLES.join(', ')}`);
    }
  }
  const rows = (name: (typeof FIXTURE_TABLES)[number]) => {
    const value = fixture[name] ?? [];
    if (!Array.isArray(value)) throw new GatewayInputError(name, 'must be an array of objects');
    value.forEach((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw new GatewayInputError(`${name}[${i}]`, 'must be an object');
      }
    });
    return value as Record<string, unknown>[];
  };
  const input = Object.fromEntries(FIXTURE_TABLES.map((name) => [name, rows(name)])) as Record<
    (typeof FIXTURE_TABLES)[number],
    Record<string, unknown>[]
  >;
  const devices = checkDevices(core, input.devices);

  // Rows are only added, so undoing them costs the rows added, not a copy of the whole store.
  const mark = core.store.addMark();
  const added: Device[] = [];
  try {
    const result: FixtureResult = { users: [], domains: [], pixels: [], qrs: [], devices: [] };
    input.users.forEach((user, i) => {
      const wanted = wantedId(core, 'users', user, `users[${i}]`, mark);
      const { id: _, ...fields } = user;
      const added = addUser(core, fields, `users[${i}]`);
      result.users.push(keepId(core, 'users', added, wanted));
    });
    for (const table of ['domains', 'pixels', 'qrs'] as const) {
      // Looked up once per table, not once per row.
      const route = createRoute(core, CREATE_ROUTES[table]);
      for (const [i, item] of input[table].entries()) {
        const wanted = wantedId(core, table, item, `${table}[${i}]`, mark);
        const { id: _, ...fields } = item;
        const added = await createOwned(core, route, fields, `${table}[${i}]`, origin);
        result[table].push(keepId(core, table, added, wanted) as never);
      }
    }
    for (const device of devices) added.push(core.gateway.devices.add(device));
    result.devices = added;
    return result;
  } catch (error) {
    core.store.removeAddedSince(mark);
    // A generated device id can meet one given later in the same fixture (`dev_2`): the devices added go too.
    for (const device of added) core.gateway.devices.remove(device.id);
    throw error;
  }
}

/** The id a row asks for (a recording keeps the deployment's ids), checked before the row is added. */
function wantedId(
  core: StateHost,
  table: 'users' | 'domains' | 'pixels' | 'qrs',
  item: Record<string, unknown>,
  at: string,
  mark: Readonly<Record<string, number>>,
): number | undefined {
  const id = item.id;
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new GatewayInputError(`${at}.id`, 'must be a whole number of 1 or more (omit it to have one given)');
  }
  const lowest = mark[table] as number;
  // Ids below the table's next one are or were in use; ids given here only ever go up, so an undo can find them.
  if (id < lowest)
    throw new GatewayInputError(
      `${at}.id`,
      `must be ${lowest} or more: lower ids are or were in use (a recording keeps the deployment's ids: load it into linkgate mock --seed empty)`,
    );
  if (core.store[table].has(id)) throw new GatewayInputError(`${at}.id`, 'is already the id of another row');
  return id;
}

/** The row just added, moved to the id it asked for. */
function keepId<T extends { id: number }>(
  core: StateHost,
  table: 'users' | 'domains' | 'pixels' | 'qrs',
  added: T,
  wanted: number | undefined,
): T {
  if (wanted === undefined || wanted === added.id) return added;
  core.store.giveId(table, added.id, wanted);
  return { ...added, id: wanted };
}

/** The key of a recording that names the production variants it was made against (`["stringIds"]`). */
export const FIXTURE_VARIANTS_KEY = 'variants';

/**
 * A fixture's `variants` as the variant names it switches on, or a {@link GatewayInputError} naming the bad entry.
 *
 * @example
 * fixtureVariants(['stringIds']); // ['stringIds']
 */
export function fixtureVariants(value: unknown): (typeof PRODUCTION_VARIANT_NAMES)[number][] {
  if (!Array.isArray(value)) {
    throw new GatewayInputError(
      FIXTURE_VARIANTS_KEY,
      `must be a list of variant names; the known variants are ${PRODUCTION_VARIANT_NAMES.join(', ')}`,
    );
  }
  let resolved: ProductionVariants;
  try {
    resolved = resolveVariants(value);
  } catch (error) {
    // resolveVariants says "variants: unknown variant ..."; the field is named once, by the error's own field.
    throw new GatewayInputError(
      FIXTURE_VARIANTS_KEY,
      (error as Error).message.replace(/^variants: /, '').replace(/\.$/, ''),
    );
  }
  return PRODUCTION_VARIANT_NAMES.filter((name) => resolved[name]);
}

/** Variants are chosen when the mock starts: a fixture may name them only when they are the running mock's. */
function checkRunningVariants(running: ProductionVariants, value: unknown): void {
  const asked = fixtureVariants(value);
  const runs = PRODUCTION_VARIANT_NAMES.filter((name) => running[name]);
  if (asked.length === runs.length && asked.every((name) => running[name])) return;
  const list = (names: readonly string[]) => (names.length === 0 ? 'none' : names.join(', '));
  throw new GatewayInputError(
    FIXTURE_VARIANTS_KEY,
    `are chosen when the mock starts and cannot change on a running one (the fixture names ${list(asked)}, this mock runs with ${list(runs)}); start the mock with linkgate mock --variant <names>, or linkgate mock --fixture <this file>`,
  );
}

function addUser(core: StateHost, input: Record<string, unknown>, at: string): FixtureResult['users'][number] {
  const { store } = core;
  const text = (name: string, required: boolean): string | undefined => {
    const value = input[name];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string') throw new GatewayInputError(`${at}.${name}`, 'must be a string');
    return value;
  };
  const username = text('username', true)!;
  const email = text('email', true)!;
  const password = text('password', false) ?? 'password';
  const apikey = text('apikey', false);
  const admin = input.admin ?? false;
  if (!USERNAME_PATTERN.test(username)) {
    throw new GatewayInputError(`${at}.username`, 'must be 4 to 20 letters, digits or underscores');
  }
  if (!isValidEmail(email)) throw new GatewayInputError(`${at}.email`, 'must be a valid email address');
  if (!isValidPassword(password)) throw new GatewayInputError(`${at}.password`, 'must be at least 5 characters');
  if (typeof admin !== 'boolean') throw new GatewayInputError(`${at}.admin`, 'must be a boolean');
  if (apikey !== undefined && (apikey === '' || /\s/.test(apikey))) {
    throw new GatewayInputError(
      `${at}.apikey`,
      'must be a non-empty string without spaces (omit it to have one generated)',
    );
  }
  // Usernames and emails are unique without regard to case, as the API's own user-add rule has it. Index lookups,
  // not a scan of every stored user: a fixture of n users costs n lookups, not n² compares.
  if (store.userByUsername(username)) throw new GatewayInputError(`${at}.username`, 'is already taken');
  if (store.userByEmail(email)) throw new GatewayInputError(`${at}.email`, 'is already taken');
  if (apikey !== undefined && store.users.firstBy('apikey', apikey)) {
    throw new GatewayInputError(`${at}.apikey`, "is another user's key");
  }
  const row = store.addUser({ username, email, password, admin, ...(apikey === undefined ? {} : { apikey }) });
  return { id: row.id, username: row.username, apikey: row.apikey, admin: row.admin };
}

/** Creates a domain, pixel or QR code through the management route, as its `owner`. */
async function createOwned(
  core: StateHost,
  route: Route<ManagementContext>,
  item: Record<string, unknown>,
  at: string,
  origin: string,
): Promise<{ id: number; owner: string; link?: string }> {
  const { owner, ...body } = item;
  if (typeof owner !== 'string') {
    throw new GatewayInputError(`${at}.owner`, 'is required: the username of an existing user or of one in users');
  }
  // The owner's name as written: the case-blind index finds the one candidate, the compare keeps the match exact.
  const found = core.store.userByUsername(owner);
  const user = found?.username === owner ? found : undefined;
  if (!user) throw new GatewayInputError(`${at}.owner`, `names no user ("${owner}"); add it to users first`);
  const answer = await runRoute(route, body, { core, user }, origin);
  const parsed = JSON.parse(answer.body as string) as {
    error: unknown;
    id?: number;
    link?: string;
    message?: string;
    issues?: string[];
  };
  if (parsed.error !== 0 || typeof parsed.id !== 'number') {
    // The route names the field as "<field>: <rule>" in `issues`; else its message is the rule.
    const issue = parsed.issues?.[0];
    const colon = issue?.indexOf(': ') ?? -1;
    if (issue !== undefined && colon > 0) {
      throw new GatewayInputError(`${at}.${issue.slice(0, colon)}`, issue.slice(colon + 2));
    }
    throw new GatewayInputError(at, `is refused by ${route.path}: ${parsed.message ?? 'no reason given'}`);
  }
  return route.path === CREATE_ROUTES.qrs ? { id: parsed.id, owner, link: parsed.link } : { id: parsed.id, owner };
}

/** The management route `POST path` (a fixture creates rows through it). */
function createRoute(core: StateHost, path: string): Route<ManagementContext> {
  const route = core.router.groups
    .flatMap((group) => group.routes)
    .find((r) => r.method === 'POST' && r.path === path) as Route<ManagementContext> | undefined;
  if (!route) throw new Error(`the management route POST ${path} is missing`);
  return route;
}

async function runRoute(
  route: Route<ManagementContext>,
  body: unknown,
  context: ManagementContext,
  origin: string,
): Promise<MockResponse> {
  const path = route.path;
  const req = {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    // Links in the answer (QR images) point where the fixture was sent, as a client's own create would.
    origin,
  };
  try {
    return await route.handle({ req, params: {}, context });
  } catch (error) {
    if (error instanceof RequestRejection) return error.response;
    throw error;
  }
}

/** Checks the devices against the registry's own rules on a scratch copy, so adding them later cannot fail. */
function checkDevices(core: StateHost, items: Record<string, unknown>[]): DeviceInput[] {
  const seen = new Set(core.gateway.devices.list().map((d) => d.id));
  return items.map((item, i) => {
    const id = item.id;
    if (typeof id === 'string' && seen.has(id)) throw new GatewayInputError(`devices[${i}].id`, 'is already a device');
    if (typeof id === 'string') seen.add(id);
    // A throwaway registry proves the input valid without touching the gateway.
    checkedUnder(`devices[${i}]`, () => new DeviceRegistry(core.clock).add(item as DeviceInput));
    return item as DeviceInput;
  });
}
