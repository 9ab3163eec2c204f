/**
 * Admin tasks: list plans, register a user, subscribe them to a paid plan, list pro users, then delete the user.
 * Needs an admin API key (`npm start` prints one).
 *
 *   LINKGATE_BASE_URL=http://127.0.0.1:4010 LINKGATE_API_KEY=<admin key> node --import tsx examples/admin-users.ts
 */
import { pathToFileURL } from 'node:url';
import { Linkgate, type LinkgateOptions, NotFoundError, PermissionDeniedError } from 'linkgate';

/** Options of {@link main}. */
export interface AdminUsersOptions extends LinkgateOptions {
  /** The username to register (4-20 letters, digits or _). @default a time-based one */
  username?: string;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** What the run did. */
export interface AdminUsersResult {
  /** The registered (and then deleted) user's id. */
  userId: number;
  /** The plan they were subscribed to. */
  planId: number;
  /** Their expiry date after subscribing. */
  expires: string | null;
}

/** Runs the admin tasks; throws PermissionDeniedError with a hint when the key is not an admin's. */
export async function main(options: AdminUsersOptions = {}): Promise<AdminUsersResult> {
  const { username = `demo_${Date.now().toString(36)}`, log = console.log, ...clientOptions } = options;
  const client = new Linkgate(clientOptions);

  let plans: Awaited<ReturnType<typeof client.plans.list>>;
  try {
    plans = await client.plans.list();
  } catch (error) {
    if (error instanceof PermissionDeniedError) log('this key is not an admin key: plans and users need one');
    throw error;
  }
  for (const plan of plans)
    log(`plan #${plan.id} ${plan.name}${plan.prices ? ` (${plan.prices.monthly}/month)` : ' (free)'}`);
  const paid = plans.find((p) => p.prices !== null);
  if (!paid) throw new Error('no paid plan to subscribe to; create one first');

  const created = await client.users.create({
    username,
    email: `${username}@example.com`,
    password: 'a-long-password',
  });
  log(`registered ${created.username} as user #${created.id}`);
  await client.plans.subscribe(paid.id, created.id, { type: 'yearly' });
  const user = await client.users.get(created.id);
  // User records carry the user's API key: never log it.
  log(`${user.username} is now ${user.status} on plan #${user.planid}, until ${user.expires}`);

  const pro = await client.users.list({ filter: 'pro' });
  log(`pro users: ${pro.map((u) => u.username).join(', ')}`);

  await client.users.delete(created.id);
  try {
    await client.users.get(created.id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    log(`deleted user #${created.id}`);
  }
  return { userId: created.id, planId: paid.id, expires: user.expires };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
