import { type ManagementOperationId, updateAccount } from '../../src/schemas/operations.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { toAccount } from './records.js';
import { parseWith, readJsonBody } from './request-validation.js';
import type { ManagementContext } from './route-context.js';
import { isValidEmail, isValidPassword } from './rules.js';

/** The caller's account: read, and change email or password. */
export const accountHandlers = {
  'account.get': ({ context }) => success({ data: toAccount(context.user) }),
  'account.update'({ req, context }) {
    const { core, user } = context;
    const body = parseWith(updateAccount.body, readJsonBody(req));
    if (body.email === undefined && body.password === undefined) {
      return success({ message: 'No changes were done to the account.' });
    }
    if (body.email !== undefined) {
      if (!isValidEmail(body.email)) throw new RequestRejection('Please enter a valid email.');
      const owners = core.store.users.findBy('email', body.email.toLowerCase());
      if (owners.some((u) => u.id !== user.id)) {
        throw new RequestRejection('An account is already associated with this email.');
      }
    }
    if (body.password !== undefined && !isValidPassword(body.password)) {
      throw new RequestRejection('Password must be at least 5 characters.');
    }
    if (body.email !== undefined) {
      user.email = body.email;
      core.store.users.reindex(user);
    }
    if (body.password !== undefined) user.password = body.password;
    return success({ message: 'Account has been successfully updated.' });
  },
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
