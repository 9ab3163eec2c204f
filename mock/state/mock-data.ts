/**
 * The types of the mock's data: the management tables' rows and seed records (`backend.store`), and the parts of a
 * snapshot of the whole state. Reached as `MockData.X` from `linkgate/mock`, so the entry's top level stays the few
 * names a test starts from.
 *
 * @module
 */

export type { DeadLetterQueueState } from '../delivery/dead-letter-queue.js';
export type { WebhookRoutingState } from '../delivery/webhook-routing.js';
// Here, not in management/: a snapshot also holds the messaging side's and the delivery engine's state.
export type * from '../management/store-types.js';
export type { DeviceRegistryState } from '../messaging/device-registry.js';
export type { MessagingKeyringState } from '../messaging/messaging-keyring.js';
export type { MockSnapshot } from './mock-snapshot.js';
