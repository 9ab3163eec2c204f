import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import type { Account, AccountUpdate } from '../../schemas/account.js';
import { getAccount, updateAccount } from '../../schemas/operations.js';
import { type ActionResult, callOf } from './shared.js';

/** The caller's own account: `client.account`. */
export class AccountResource extends APIResource {
  /**
   * Reads the caller's account.
   * @example
   * const { email, status } = await client.account.get();
   */
  get(options?: RequestOptions): APIPromise<Account> {
    return this._client.request(() => callOf(getAccount, { options }));
  }

  /**
   * Changes the caller's email and/or password.
   * @example
   * await client.account.update({ password: 'a-long-new-password' });
   */
  update(body: AccountUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(updateAccount, { body, options }));
  }
}
