import { createUser, listUsers, type ManagementOperationId } from '../../src/schemas/operations.js';
import { USERNAME_PATTERN } from '../../src/schemas/primitives.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { parseDate } from './calendar.js';
import { toUser } from './records.js';
import { parseWith, readId, readJsonBody, rejectField } from './request-validation.js';
import type { ManagementContext } from './route-context.js';
import { isValidEmail, isValidPassword } from './rules.js';
import type { UserRow } from './store.js';

const NOT_FOUND = 'User does not exist.';
const REQUIRED = new Set(['username', 'email', 'password']);

const FILTERS: Record<'admin' | 'free' | 'pro', (u: UserRow) => boolean> = {
  admin: (u) => u.admin,
  free: (u) => u.status !== 'pro',
  pro: (u) => u.status === 'pro',
};

/** Users (admin only): list (not paged), read, add, delete with everything they own. */
export const userHandlers = {
  'users.list'({ req, context }) {
    const { filter } = parseWith(listUsers.query, { filter: req.query.get('filter') || undefined });
    const users = [...context.core.store.users.values()].filter(filter ? FILTERS[filter] : () => true);
    return success({ data: users.map(toUser) });
  },
  'users.get'({ params, context }) {
    const user = context.core.store.users.get(readId(params));
    if (!user) throw new RequestRejection(NOT_FOUND);
    return success({ data: toUser(user) });
  },
  'users.create'({ req, context }) {
    const { store } = context.core;
    const body = parseWith(createUser.body, readJsonBody(req), {
      message: (issues) =>
        issues.some((i) => REQUIRED.has(i.field)) ? 'Invalid request or incorrect data format.' : undefined,
    });
    if (body.expiration !== undefined && parseDate(body.expiration) === undefined) {
      rejectField('expiration', 'must be a real date in the form YYYY-MM-DD HH:MM:SS');
    }
    if (!USERNAME_PATTERN.test(body.username)) throw new RequestRejection('Please enter a valid username.');
    if (store.userByUsername(body.username)) throw new RequestRejection('Username already exists.');
    if (!isValidEmail(body.email)) throw new RequestRejection('Please enter a valid email.');
    if (store.userByEmail(body.email)) {
      throw new RequestRejection('An account is already associated with this email.');
    }
    if (!isValidPassword(body.password)) throw new RequestRejection('Password must be at least 5 characters.');
    const plan =
      body.planid !== undefined ? store.plans.get(body.planid) : [...store.plans.values()].find((p) => p.free);
    if (body.planid !== undefined && !plan) throw new RequestRejection('Plan does not exist.');
    const row = store.addUser({
      username: body.username,
      email: body.email,
      password: body.password,
      planid: plan?.id ?? null,
      status: plan && !plan.free ? 'pro' : 'free',
      expires: body.expiration ?? null,
    });
    return success({
      message: 'User has been registered.',
      data: { id: row.id, email: row.email, username: row.username },
    });
  },
  'users.delete'({ params, context }) {
    const { core, user: caller } = context;
    const id = readId(params);
    const user = core.store.users.get(id);
    if (!user) throw new RequestRejection(NOT_FOUND);
    // Deleting yourself would lock the only admin out of the mock; production does not document this case.
    if (user.id === caller.id) throw new RequestRejection('You cannot delete your own account through the API.');
    core.store.deleteUser(id);
    core.rateLimiter?.forget(user.apikey);
    return success({ message: 'User has been deleted.' });
  },
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
