import { AccountUpdate } from '../../src/schemas/account.js';
import { RequestRejection, success } from '../http/responses.js';
import { toAccount } from './records.js';
import { parseWith, readJsonBody } from './request-validation.js';
import type { ManagementRoute } from './route-context.js';
import { isValidEmail, isValidPassword } from './rules.js';

/** `GET /api/account` and `PUT /api/account/update`. */
export const accountRoutes: ManagementRoute[] = [
  {
    method: 'GET',
    path: '/api/account',
    handle: ({ context }) => success({ data: toAccount(context.user) }),
  },
  {
    method: 'PUT',
    path: '/api/account/update',
    handle({ req, context }) {
      const { core, user } = context;
      const body = parseWith(AccountUpdate, readJsonBody(req));
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
  },
];
