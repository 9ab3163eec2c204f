/**
 * `linkgate/mock`: a stateful reference backend of the management API and the messaging gateway, for tests (msw
 * `setupServer` / `setupWorker`) and as a standalone `node:http` server (also the `linkgate mock` command).
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockBackend, ManualClock } from 'linkgate/mock';
 *
 * const clock = new ManualClock();
 * const backend = createMockBackend({ clock, seed: 'demo' });
 * const server = setupServer(...backend.handlers);
 * server.listen();
 *
 * @packageDocumentation
 */
export { MAX_BODY_BYTES } from './adapters/body-limit.js';
export { createMockBackend, type MockBackend } from './adapters/mock-backend.js';
export { type MockServer, type StartMockServerOptions, startMockServer } from './adapters/node-server.js';
export type { MockRequestHandler } from './adapters/web.js';
export type { BackendCore, MockBackendOptions } from './backend.js';
export { ManualClock } from './clock.js';
export type { CircuitSnapshot, CircuitState, CircuitTransition } from './gateway/CircuitBreaker.js';
export type { DeadLetter } from './gateway/DeadLetterQueue.js';
export type { AttemptOutcome, AttemptRecord } from './gateway/DeliveryAttempt.js';
export type { Faults } from './gateway/FaultInjector.js';
export { Gateway, type GatewayOptions } from './gateway/Gateway.js';
export type { DroppedEvent, GatewayLifecycle, PublishResult } from './gateway/GatewayEngine.js';
export { GatewayInputError } from './gateway/GatewayInputError.js';
export type { WebhookEndpoint, WebhookEndpointInput } from './gateway/WebhookEndpoint.js';
export type { Device, DeviceInput } from './messaging/DeviceRegistry.js';
export type { IssuedMessagingKey, MessagingKeyInfo } from './messaging/MessagingKeyring.js';
export type { RateLimitOptions } from './rate-limit.js';
export type {
  DomainRow,
  MockStore,
  NewQr,
  NewUser,
  OverlayRow,
  PixelRow,
  PlanRow,
  QrRow,
  SplashRow,
  UserRow,
} from './store.js';
export type { MockRequest, MockResponse } from './types.js';
