/**
 * The types of the mock's management data (`backend.store`): its tables' rows, the records you pass to seed it and
 * its snapshots. Reached as `MockData.X` from `linkgate/mock`, so the entry's top level stays the few names a test
 * starts from.
 *
 * @module
 */

export type { IndexedTable, IndexKeys } from './indexed-table.js';
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
} from './store.js';
