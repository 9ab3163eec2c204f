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
export { describeCaller, type RequestLogEntry } from './adapters/request-log.js';
export type { MockBackendOptions } from './backend.js';
export type * as MockFaults from './faults/fault-types.js';
export { Gateway, type GatewayOptions } from './gateway/gateway.js';
export type * as MockGateway from './gateway/gateway-types.js';
export type { RateLimitOptions } from './management/rate-limit.js';
export type { MockStore } from './management/store.js';
export {
  PRODUCTION_VARIANT_NAMES,
  type ProductionVariantName,
  type ProductionVariants,
  type ProductionVariantsOption,
} from './management/variants.js';
export { SendRejection } from './messaging/sent-message.js';
export { GatewayInputError } from './shared/gateway-input-error.js';
export { ManualClock } from './shared/manual-clock.js';
export type * as MockData from './state/mock-data.js';
