import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import { createUser, deleteUser, getUser, listUsers } from '../../schemas/operations.js';
import type { User, UserCreate, UserListQuery } from '../../schemas/user.js';
import { type ActionResult, callOf } from './shared.js';

/** A newly registered user. */
export interface UserCreated {
  /** The new user's id. */
  id: number;
  /** Their email. */
  email: string;
  /** Their username. */
  username: string;
}

/** Users (admin only): `client.users`. Records carry each user's API key: treat them as secrets. */
export class UsersResource extends APIResource {
  /**
   * Lists users (not paged), optionally only admins, free or pro users.
   * @example
   * const pros = await client.users.list({ filter: 'pro' });
   */
  list(query?: UserListQuery, options?: RequestOptions): APIPromise<User[]> {
    return this._client.request(() => callOf(listUsers, { query, options }));
  }

  /** Reads one user. */
  get(id: number, options?: RequestOptions): APIPromise<User> {
    return this._client.request(() => callOf(getUser, { path: { id }, options }));
  }

  /** Registers a user; the password needs at least 5 characters. */
  create(body: UserCreate, options?: RequestOptions): APIPromise<UserCreated> {
    return this._client.request(() => callOf(createUser, { body, options }));
  }

  /** Deletes a user. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(deleteUser, { path: { id }, options }));
  }
}
