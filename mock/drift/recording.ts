// Turns what a deployment answered into a fixture `POST /__mock/fixture` loads (mock/control/fixture.ts's format):
// users, domains, pixels and QR codes with the deployment's ids, in the order it listed them, each under the user whose
// key read it; and the production variants the answers matched (`linkgate mock --fixture` starts with them). Secrets
// never go in: no keys, no passwords (the mock makes its own).
import type { ProductionVariantName } from '../management/variants.js';

type Json = Record<string, unknown>;

/** Records seen in the deployment's answers, as they came. */
export interface ObservedRecords {
  /** The caller's account (`GET /api/account`'s data). */
  account: Json | undefined;
  users: Json[];
  domains: Json[];
  pixels: Json[];
  qrs: Json[];
  /** Usernames `GET /api/users?filter=admin` listed (admin keys only). */
  adminUsernames: string[];
}

/** What one key's answers showed: whose key it is, and the records it read. */
export interface CallerRecords {
  /** The key's account (`GET /api/account`'s data), when it was read. */
  account: Json | undefined;
  /** Whether the key is an admin's (its plans were readable). */
  admin: boolean;
  domains: Json[];
  pixels: Json[];
  qrs: Json[];
}

/** A fixture for the mock: the tables of mock/control/fixture.ts. */
export interface RecordedFixture {
  users: { username: string; email: string }[];
  domains: { id?: number; owner: string; domain: string; redirectroot?: string; redirect404?: string }[];
  pixels: { id?: number; owner: string; type: string; name: string; tag: string }[];
  qrs: { id?: number; owner: string; type: 'link' | 'text'; data: string; name?: string }[];
  /** The production variants the deployment's answers matched; `linkgate mock --fixture` starts with them. */
  variants: ProductionVariantName[];
}

/** The mock's own admin, who owns what an admin's key showed: a recording never brings admins of its own. */
export const MOCK_ADMIN = 'admin';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A record's id as a number (the stringIds variant sends `"12"`), or undefined when it has none. */
function idOf(record: Json): number | undefined {
  const id = typeof record.id === 'string' && /^\d{1,15}$/.test(record.id) ? Number(record.id) : record.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The fixture of what one key saw (`linkgate check`'s tour): its records belong to its user, or to the mock's
 * `admin` when the key is an admin's.
 * @param callerIsAdmin whether the key was an admin's (its plans and users were readable)
 * @param variants the production variants the answers matched
 */
export function buildRecording(
  seen: ObservedRecords,
  callerIsAdmin: boolean,
  variants: readonly ProductionVariantName[],
): RecordedFixture {
  const caller = { account: seen.account, admin: callerIsAdmin, domains: seen.domains, pixels: seen.pixels };
  return buildCallersRecording([{ ...caller, qrs: seen.qrs }], seen.users, seen.adminUsernames, variants);
}

/**
 * The fixture of what several keys saw (`linkgate proxy`): each key's records belong to the user its account
 * answer named (the mock's `admin` for an admin's key, or a key whose account was never read); users carry their
 * username and email only (the mock gives their ids and keys: its own admin holds id 1). Records keep their ids, oldest first as the mock lists them
 * back newest first; a record read twice is written once.
 * @param listedUsers users an admin's key listed
 * @param adminUsernames admins an admin's key listed: left out, the mock's own admin stands in for them
 */
export function buildCallersRecording(
  callers: readonly CallerRecords[],
  listedUsers: readonly Json[],
  adminUsernames: readonly string[],
  variants: readonly ProductionVariantName[],
): RecordedFixture {
  const users = new Map<string, { username: string; email: string }>();
  const admins = new Set([MOCK_ADMIN, ...adminUsernames.map((name) => name.toLowerCase())]);
  const addUser = (user: Json | undefined) => {
    const username = text(user?.username);
    const email = text(user?.email);
    if (!user || !username || !email || admins.has(username.toLowerCase())) return;
    users.set(username.toLowerCase(), { username, email });
  };
  const ownerOf = (caller: CallerRecords) => {
    const username = text(caller.account?.username);
    return caller.admin || !username || admins.has(username.toLowerCase()) ? MOCK_ADMIN : username;
  };
  for (const caller of callers) if (!caller.admin) addUser(caller.account);
  for (const user of listedUsers) addUser(user);

  const fixture: RecordedFixture = { users: [...users.values()], domains: [], pixels: [], qrs: [], variants: [] };
  const domains = new Map<number | Json, RecordedFixture['domains'][number]>();
  const pixels = new Map<number | Json, RecordedFixture['pixels'][number]>();
  const qrs = new Map<number | Json, RecordedFixture['qrs'][number]>();
  for (const caller of callers) {
    const owner = ownerOf(caller);
    // Lists come newest first: read backwards, records without ids are created oldest first too.
    for (const d of [...caller.domains].reverse()) {
      const domain = text(d.domain);
      if (!domain) continue;
      const id = idOf(d);
      const redirectroot = text(d.redirectroot) || undefined;
      const redirect404 = text(d.redirect404) || undefined;
      domains.set(id ?? d, {
        ...(id !== undefined && { id }),
        owner,
        domain,
        ...(redirectroot && { redirectroot }),
        ...(redirect404 && { redirect404 }),
      });
    }
    for (const p of [...caller.pixels].reverse()) {
      const [type, name, tag] = [text(p.type), text(p.name), text(p.tag)];
      const id = idOf(p);
      if (type && name && tag) pixels.set(id ?? p, { ...(id !== undefined && { id }), owner, type, name, tag });
    }
    // The API shows a code's name and short link, never its type and content: each comes back as a text code of its name.
    for (const q of [...caller.qrs].reverse()) {
      const name = text(q.name);
      const link = text(q.link);
      const id = idOf(q);
      const data = name || link || `QR code ${String(q.id)}`;
      qrs.set(id ?? q, { ...(id !== undefined && { id }), owner, type: 'text' as const, data, ...(name && { name }) });
    }
  }
  fixture.domains = sortById([...domains.values()]);
  fixture.pixels = sortById([...pixels.values()]);
  fixture.qrs = sortById([...qrs.values()]);
  fixture.variants = [...variants];
  return fixture;
}

/** Rows with ids in id order (the mock gives ids counting up), rows without one after them in the order seen. */
function sortById<T extends { id?: number }>(rows: T[]): T[] {
  return rows
    .map((row, at) => ({ row, at }))
    .sort((a, b) => (a.row.id ?? Number.MAX_SAFE_INTEGER) - (b.row.id ?? Number.MAX_SAFE_INTEGER) || a.at - b.at)
    .map(({ row }) => row);
}
