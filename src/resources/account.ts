import * as z from 'zod/mini';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { validate } from '../core/validation.js';
import { Account, type AccountUpdate } from '../schemas/account.js';
import { dataEnvelope } from '../schemas/envelope.js';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../schemas/primitives.js';
import { matching, maxChars, minChars } from '../schemas/rules.js';
import { type ActionResult, messageCall } from './shared.js';

const AccountEnvelope = dataEnvelope(Account);

/** The rules production applies to an account update, checked before sending. */
const AccountUpdateBody = z.object({
  email: z.optional(
    z
      .string()
      .check(maxChars(50, 'must be at most 50 characters'), matching(EMAIL_PATTERN, 'must be a valid email address')),
  ),
  password: z.optional(
    z.string().check(minChars(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)),
  ),
});

/** The caller's own account: `client.account`. */
export class AccountResource extends APIResource {
  /**
   * Reads the caller's account.
   * @example
   * const { email, status } = await client.account.get();
   */
  get(options?: RequestOptions): APIPromise<Account> {
    return this._client.request(() => ({
      operation: 'account.get',
      method: 'GET',
      path: '/api/account',
      schema: AccountEnvelope,
      select: (answer) => answer.data,
      options,
    }));
  }

  /**
   * Changes the caller's email and/or password.
   * @example
   * await client.account.update({ password: 'a-long-new-password' });
   */
  update(body: AccountUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() =>
      messageCall(
        'account.update',
        'PUT',
        '/api/account/update',
        validate(AccountUpdateBody, body, 'account.update', 'body'),
        options,
      ),
    );
  }
}
