/**
 * `linkgate/mock`: a stateful reference backend of the management API and the messaging gateway, for tests (msw
 * `setupServer` / `setupWorker`) and as a standalone `node:http` server (also the `linkgate mock` command).
 *
 * Everything runs on an injected clock: pass a {@link ManualClock} and advance it to see rate windows reset,
 * webhook retries fire and pairing QR frames expire, with no real waiting. {@link createMockBackend} gives msw
 * handlers and a direct `fetch`; {@link startMockServer} serves the same backend over HTTP; `backend.gateway`
 * ({@link Gateway}) simulates devices, messages and webhook delivery faults.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { Linkgate } from 'linkgate';
 * import { createMockBackend, ManualClock } from 'linkgate/mock';
 *
 * const clock = new ManualClock();
 * const backend = createMockBackend({ clock, seed: 'demo' });
 * const server = setupServer(...backend.handlers);
 * server.listen();
 *
 * const client = new Linkgate({ apiKey: backend.adminKey, baseUrl: 'https://short.example', clock });
 * const account = await client.account.get();
 *
 * @packageDocumentation
 * @module linkgate/mock
 */
export { createMockBackend, type MockBackend } from './adapters/mock-backend.js';
export { type MockServer, type StartMockServerOptions, startMockServer } from './adapters/node-server.js';
export { describeCaller, formatRequestLine, type RequestLogEntry } from './adapters/request-log.js';
export type { MockRequestHandler } from './adapters/web.js';
export type { BackendCore, MockBackendOptions, ResolvedMockBackendOptions } from './backend.js';
export type { CircuitSnapshot, CircuitState, CircuitTransition } from './gateway/circuit-breaker.js';
export type { DeadLetter, DeadLetterQueue } from './gateway/dead-letter-queue.js';
export type { AttemptOutcome, AttemptRecord } from './gateway/delivery-attempt.js';
export type { FaultInjector, Faults } from './gateway/fault-injector.js';
export type {
  DroppedEvent,
  GatewayEngine,
  GatewayEngineOptions,
  GatewayLifecycle,
  GatewayStats,
  OutboundEvent,
  PublishResult,
  ScheduledAttempt,
  SteppableClock,
} from './gateway/gateway-engine.js';
export { GatewayInputError } from './gateway/gateway-input-error.js';
export type { InFlightAttempt } from './gateway/in-flight-attempt.js';
export type { Unsubscribe } from './gateway/lifecycle-emitter.js';
export type { WebhookEndpoint, WebhookEndpointInput } from './gateway/webhook-endpoint.js';
export type { WebhookRoute, WebhookRouting } from './gateway/webhook-routing.js';
export { MAX_BODY_BYTES } from './http/body-limit.js';
export { type FailureOptions, RequestRejection } from './http/responses.js';
export type { GuardResult, MockRouter, Params, Route, RouteCall, RouteGroup } from './http/router.js';
export type { MockRequest, MockResponse } from './http/types.js';
export type { IndexedTable, IndexKeys } from './management/indexed-table.js';
export type { RateDecision, RateLimiter, RateLimitOptions } from './management/rate-limit.js';
export type {
  DomainRow,
  MockStore,
  NewPlan,
  NewQr,
  NewUser,
  OverlayRow,
  PixelRow,
  PlanCountedFeature,
  PlanFeature,
  PlanLimitsRow,
  PlanRow,
  QrRow,
  QrStatsRow,
  SplashRow,
  StoreSnapshot,
  TableName,
  UserRow,
} from './management/store.js';
export {
  PRODUCTION_VARIANT_NAMES,
  type ProductionVariantName,
  type ProductionVariants,
  type ProductionVariantsOption,
} from './management/variants.js';
export type { ChatKind } from './messaging/chat-kind.js';
export type { Device, DeviceInput, DeviceRegistry } from './messaging/device-registry.js';
export { Gateway, type GatewayOptions } from './messaging/gateway.js';
export type { MediaStore, StoredMedia } from './messaging/media-store.js';
export type { IssuedMessagingKey, MessagingKeyInfo, MessagingKeyring } from './messaging/messaging-keyring.js';
export { type OutboundMessages, SendRejection, type SentMessage } from './messaging/outbound-messages.js';
export { ManualClock } from './shared/manual-clock.js';
export type { DeviceStatusSimulator, SimulatedStatusChange } from './simulators/device-status-simulator.js';
export type {
  InboundMessageSimulator,
  InboundResult,
  SimulatedInboundMessage,
  SimulatedMedia,
} from './simulators/inbound-message-simulator.js';
export type { PairingSession, PairingSimulator } from './simulators/pairing-simulator.js';
export type { ReceiptSimulator, SimulatedDispatch, SimulatedReceipt } from './simulators/receipt-simulator.js';
