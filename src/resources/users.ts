import * as z from 'zod/mini';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { validate, validateId } from '../core/validation.js';
import { dataEnvelope } from '../schemas/envelope.js';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '../schemas/primitives.js';
import { matching, maxChars, minChars } from '../schemas/rules.js';
import { User, UserCreate, UserCreatedEnvelope, UserListQuery } from '../schemas/user.js';
import { type ActionResult, messageCall } from './shared.js';

const UserEnvelope = dataEnvelope(User);
const UserListEnvelope = dataEnvelope(z.array(User));

/** The rules production applies to a new user, checked before sending. */
const UserCreateBody = z.object({
  ...UserCreate.shape,
  username: z.string().check(matching(USERNAME_PATTERN, 'must be 4-20 letters, digits or underscores')),
  email: z
    .string()
    .check(maxChars(50, 'must be at most 50 characters'), matching(EMAIL_PATTERN, 'must be a valid email address')),
  password: z.string().check(minChars(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)),
});

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
    return this._client.request(() => ({
      operation: 'users.list',
      method: 'GET',
      path: '/api/users',
      query: { filter: validate(UserListQuery, query ?? {}, 'users.list', 'query').filter },
      schema: UserListEnvelope,
      select: (answer) => answer.data,
      options,
    }));
  }

  /** Reads one user. */
  get(id: number, options?: RequestOptions): APIPromise<User> {
    return this._client.request(() => ({
      operation: 'users.get',
      method: 'GET',
      path: `/api/user/${validateId(id, 'id', 'users.get')}`,
      schema: UserEnvelope,
      select: (answer) => answer.data,
      options,
    }));
  }

  /** Registers a user; the password needs at least 5 characters. */
  create(body: UserCreate, options?: RequestOptions): APIPromise<UserCreated> {
    return this._client.request(() => ({
      operation: 'users.create',
      method: 'POST',
      path: '/api/user/add',
      body: validate(UserCreateBody, body, 'users.create', 'body'),
      schema: UserCreatedEnvelope,
      select: (answer) => ({ id: answer.data.id, email: answer.data.email, username: answer.data.username }),
      options,
    }));
  }

  /** Deletes a user. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() =>
      messageCall(
        'users.delete',
        'DELETE',
        `/api/user/${validateId(id, 'id', 'users.delete')}/delete`,
        undefined,
        options,
      ),
    );
  }
}
