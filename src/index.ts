/**
 * `linkgate`: the typed client of the link-management API ({@link Linkgate}) and of the messaging API
 * ({@link MessagingClient}), for Node, Deno, Bun, edge runtimes and (with `dangerouslyAllowBrowser`) browsers.
 *
 * Every answer is checked against the shared zod schemas; every failure, including production's HTTP 200
 * `{ "error": 1 }` answers, becomes a typed error ({@link NotFoundError}, {@link RateLimitError}, ...). Calls share one
 * rate-limit budget per API key, transient failures are retried with back-off, and lists page lazily
 * ({@link PagePromise}: `await` the first page or `for await` over every item).
 *
 * @example
 * import { Linkgate, NotFoundError } from 'linkgate';
 *
 * const client = new Linkgate({ apiKey: process.env.LINKGATE_API_KEY, baseUrl: 'https://links.example.com' });
 * const account = await client.account.get();
 * for await (const domain of client.domains.list()) console.log(domain.domain);
 * try {
 *   await client.pixels.delete(42);
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log('already gone');
 *   else throw error;
 * }
 *
 * @packageDocumentation
 * @module linkgate
 */

export { APIPromise } from './core/api-promise.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  CrossOriginRedirectError,
  LinkgateError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ValidationError,
} from './core/errors.js';
export type { Logger } from './core/logger.js';
export { Page, PagePromise } from './core/pagination.js';
// The store's records are members of its type namespace (RateLimitStore.State, ...): store authors need them, few others.
export { MemoryRateLimitStore, type RateLimitStore } from './core/rate-limit-store.js';
export type { RateLimitEvent } from './core/rate-limiter.js';
export type * as LinkgateTypes from './linkgate-types.js';
export { Linkgate, type LinkgateOptions } from './management/management-client.js';
export { MessagingClient, type MessagingClientOptions } from './messaging/messaging-client.js';
export type {
  Account,
  Domain,
  Overlay,
  Pixel,
  Plan,
  Qr,
  QrStats,
  SendMessageResult,
  Splash,
  User,
} from './schemas/index.js';
export type { PageData } from './schemas/page.js';
// Timer, TimerOptions, PageData and EventMap sit at the top level, not in the type namespaces: they live in chunks the
// entries share, and the declaration bundler turns such names inside a namespace into values that do not exist.
export type { Clock, Timer, TimerOptions } from './shared/clock.js';
