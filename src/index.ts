// Public exports of `linkgate`: the client, its errors and types, and the shared schemas.
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
export { type Clock, systemClock, type Timer } from './core/clock.js';
export { type Answer, type AnswerClassifier, classifyManagementAnswer } from './core/error-mapping.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type Issue,
  LinkgateError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ValidationError,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export { Page, PagePromise, type ToArrayOptions } from './core/pagination.js';
export {
  type AssumedWindow,
  MemoryRateLimitStore,
  type RateLimitObservation,
  type RateLimitState,
  type RateLimitStore,
  type TakeResult,
} from './core/rate-limit-store.js';
export type { RateLimitEvent, RateLimitInfo } from './core/rate-limiter.js';
export { APIResource } from './core/resource.js';
export * from './messaging/index.js';
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
