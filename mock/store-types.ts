/**
 * The types of the mock's management data (`backend.store`): its tables' rows, the records you pass to seed it and
 * its snapshots. Reached as `MockData.X` from `linkgate/mock`, so the entry's top level stays the few names a test
 * starts from.
 *
 * @module
 */

export type { DeadLetterQueueState } from './gateway/dead-letter-queue.js';
export type { WebhookRoutingState } from './gateway/webhook-routing.js';
export type { IndexedTable, IndexKeys } from './management/indexed-table.js';
export type {
  DomainRow,
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
export type { DeviceRegistryState } from './messaging/device-registry.js';
export type { MessagingKeyringState } from './messaging/messaging-keyring.js';
export type { MockSnapshot } from './state/mock-snapshot.js';
