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
export { Linkgate, type LinkgateOptions } from './client.js';
export {
  APIClient,
  type ClientOptions,
  type ClientProfile,
  type Fetch,
  type RequestOptions,
  type RequestSpec,
} from './core/api-client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { type Clock, systemClock, type Timer, type TimerOptions } from './core/clock.js';
export type { Answer, AnswerClassifier } from './core/error-mapping.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  CrossOriginRedirectError,
  type Issue,
  LinkgateError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  ValidationError,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export { Page, type PageFetcher, PagePromise, type ToArrayOptions } from './core/pagination.js';
export {
  type AssumedWindow,
  type MaybePromise,
  MemoryRateLimitStore,
  type RateLimitObservation,
  type RateLimitState,
  type RateLimitStore,
  type TakeResult,
} from './core/rate-limit-store.js';
export type { RateLimitEvent, RateLimitInfo } from './core/rate-limiter.js';
export { APIResource } from './core/resource.js';
export { classifyManagementAnswer } from './management/classify.js';
export * from './messaging/index.js';
export type { AccountResource } from './resources/account.js';
export type { DomainsResource } from './resources/domains.js';
export type { OverlaysResource } from './resources/overlays.js';
export type { PixelsResource } from './resources/pixels.js';
export type { PlansResource } from './resources/plans.js';
export type { QrCreated, QrResource, QrWithStats } from './resources/qr.js';
export type { ActionResult, Created } from './resources/shared.js';
export type { SplashResource } from './resources/splash.js';
export type { UserCreated, UsersResource } from './resources/users.js';
export * from './schemas/index.js';
