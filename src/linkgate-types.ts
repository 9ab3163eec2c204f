/**
 * The supporting types of `linkgate`: the resources a client hands out (`client.domains`, ...), hooks, traces, request and paging
 * options, the rate-limit store's records, timers, and the inner shapes of answers. Reached as `LinkgateTypes.X`, so
 * the entry's top level stays the few names an app starts from.
 *
 * @module
 */
export type { ClientOptions, Fetch, RequestOptions } from './core/api-client.js';
export type { WithResponse } from './core/api-promise.js';
export type { LogLevel } from './core/client-options.js';
export type { APIErrorInit, Issue } from './core/errors.js';
export type {
  AfterResponseHook,
  AfterResponseState,
  BeforeErrorHook,
  BeforeErrorState,
  BeforeRequestHook,
  BeforeRequestState,
  BeforeRetryHook,
  BeforeRetryState,
  HookContext,
  Hooks,
} from './core/hooks.js';
export type { PageFetcher, ToArrayOptions } from './core/pagination.js';
export type { MaybePromise } from './core/rate-limit-info.js';
export type { RateLimitInfo } from './core/rate-limiter.js';
export type { AttemptTrace, RequestTrace } from './core/traces.js';
export type { AccountResource } from './management/resources/account.js';
export type { DomainsResource } from './management/resources/domains.js';
export type { OverlaysResource } from './management/resources/overlays.js';
export type { PixelsResource } from './management/resources/pixels.js';
export type { PlanSubscriptionBody, PlansResource } from './management/resources/plans.js';
export type { QrCreated, QrResource, QrWithStats } from './management/resources/qr.js';
export type { ActionResult, Created } from './management/resources/shared.js';
export type { SplashResource } from './management/resources/splash.js';
export type { UserCreated, UsersResource } from './management/resources/users.js';
export type { MessagesResource } from './messaging/messages-resource.js';
