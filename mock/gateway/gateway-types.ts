/**
 * The types of the messaging gateway's object graph (`backend.gateway`): its delivery engine, circuit breakers,
 * dead-letter queue, faults, devices, keys, media, sent messages and simulators. Reached as `MockGateway.X` from
 * `linkgate/mock`, so the entry's top level stays the few names a test starts from.
 *
 * @module
 */
export type { CircuitSnapshot, CircuitState, CircuitTransition } from '../delivery/circuit-breaker.js';
export type { DeadLetter, DeadLetterQueue } from '../delivery/dead-letter-queue.js';
export type { AttemptOutcome, AttemptRecord } from '../delivery/delivery-attempt.js';
export type {
  DroppedEvent,
  GatewayEngineOptions,
  GatewayLifecycle,
  GatewayStats,
  OutboundEvent,
  PublishResult,
  ScheduledAttempt,
  SteppableClock,
} from '../delivery/delivery-engine.js';
export type { FaultInjector, Faults } from '../delivery/fault-injector.js';
export type { InFlightAttempt } from '../delivery/in-flight-attempt.js';
export type { Unsubscribe } from '../delivery/lifecycle-emitter.js';
export type { WebhookEndpoint, WebhookEndpointInput } from '../delivery/webhook-endpoint.js';
export type { WebhookRoute, WebhookRouting } from '../delivery/webhook-routing.js';
export type { ChatKind } from '../messaging/chat-kind.js';
export type { Device, DeviceInput, DeviceRegistry } from '../messaging/device-registry.js';
export type { MediaStore, StoredMedia } from '../messaging/media-store.js';
export type { IssuedMessagingKey, MessagingKeyInfo, MessagingKeyring } from '../messaging/messaging-keyring.js';
export type { SentMessage } from '../messaging/sent-message.js';
export type { DeviceStatusSimulator, SimulatedStatusChange } from '../simulators/device-status-simulator.js';
export type {
  InboundMessageSimulator,
  InboundResult,
  SimulatedInboundMessage,
  SimulatedMedia,
} from '../simulators/inbound-message-simulator.js';
export type { OutboundMessages } from '../simulators/outbound-messages.js';
export type { PairingSession, PairingSimulator } from '../simulators/pairing-simulator.js';
export type {
  ReceiptSimulator,
  ReceiptStatus,
  SimulatedDispatch,
  SimulatedReceipt,
} from '../simulators/receipt-simulator.js';
