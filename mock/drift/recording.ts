// Turns what a deployment answered into a fixture `POST /__mock/fixture` loads (mock/control/fixture.ts's format):
// users, domains, pixels and QR codes, and the production variants the answers matched (`linkgate mock --fixture`
// starts with them). Secrets never go in: no keys, no passwords (the mock makes its own).
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

/** A fixture for the mock: the tables of mock/control/fixture.ts. */
export interface RecordedFixture {
  users: { username: string; email: string }[];
  domains: { owner: string; domain: string; redirectroot?: string; redirect404?: string }[];
  pixels: { owner: string; type: string; name: string; tag: string }[];
  qrs: { owner: string; type: 'link' | 'text'; data: string; name?: string }[];
  /** The production variants the deployment's answers matched; `linkgate mock --fixture` starts with them. */
  variants: ProductionVariantName[];
}

/** The mock's own admin, who owns what an admin's key showed: a recording never brings admins of its own. */
export const MOCK_ADMIN = 'admin';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The fixture of what was seen. The caller's records belong to the caller (the mock's `admin` when the caller is an
 * admin: the mock brings its own); users carry only username and email, so the mock generates their keys.
 * @param callerIsAdmin whether the key was an admin's (its plans and users were readable)
 * @param variants the production variants the answers matched
 */
export function buildRecording(
  seen: ObservedRecords,
  callerIsAdmin: boolean,
  variants: readonly ProductionVariantName[],
): RecordedFixture {
  const me = seen.account;
  const owner = callerIsAdmin || !me ? MOCK_ADMIN : String(me.username);
  const users = new Map<string, { username: string; email: string }>();
  // Admins are left out: the mock's own admin stands in for them.
  const admins = new Set([MOCK_ADMIN, ...seen.adminUsernames.map((name) => name.toLowerCase())]);
  const addUser = (user: Json | undefined) => {
    const username = text(user?.username);
    const email = text(user?.email);
    if (!username || !email || admins.has(username.toLowerCase())) return;
    users.set(username.toLowerCase(), { username, email });
  };
  if (!callerIsAdmin) addUser(me);
  for (const user of seen.users) addUser(user);

  return {
    users: [...users.values()],
    domains: seen.domains.flatMap((d) => {
      const domain = text(d.domain);
      if (!domain) return [];
      const redirectroot = text(d.redirectroot) || undefined;
      const redirect404 = text(d.redirect404) || undefined;
      return [{ owner, domain, ...(redirectroot && { redirectroot }), ...(redirect404 && { redirect404 }) }];
    }),
    pixels: seen.pixels.flatMap((p) => {
      const [type, name, tag] = [text(p.type), text(p.name), text(p.tag)];
      return type && name && tag ? [{ owner, type, name, tag }] : [];
    }),
    // The API shows a code's name and short link, never its type and content: each comes back as a text code of its name.
    qrs: seen.qrs.flatMap((q) => {
      const name = text(q.name);
      const link = text(q.link);
      return [{ owner, type: 'text' as const, data: name || link || `QR code ${String(q.id)}`, ...(name && { name }) }];
    }),
    variants: [...variants],
  };
}
