// The one place the drift checker reads the operation tables and shared shapes from, so a move of their exported
// names in src/schemas/ is one edit here.

import { MESSAGING_OPERATIONS } from '../../src/schemas/messaging-operations.js';
import type { Operation } from '../../src/schemas/operation.js';
import * as management from '../../src/schemas/operations.js';

/** The webhook events' names and schemas, which `linkgate proxy --receiver` checks deliveries against. */
export { EVENT_NAMES, EVENT_SCHEMAS } from '../../src/schemas/events.js';
/** The shapes whose fields linkgate reads more tolerantly than the API documents them (see documented-forms.ts). */
export {
  Count,
  DateString,
  DateTimeInput,
  ErrorEnvelope,
  MessagingUnauthorized,
  PageMeta,
  Plan,
  PlanLimits,
  QrStats,
  SuccessFlag,
} from '../../src/schemas/index.js';
export type { Operation };

/** Which API an operation belongs to: they differ in auth, envelopes and rate limiting. */
export type ApiFamily = 'management' | 'messaging';

/** An operation of either table, with its family and a matcher for concrete paths. */
export interface TableOperation {
  family: ApiFamily;
  op: Operation;
  /** `{id}` placeholders as one path segment each. */
  pattern: RegExp;
}

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** Both tables, management first, as the checker matches requests against them. */
export const TABLE: readonly TableOperation[] = [
  ...management.MANAGEMENT_OPERATIONS.map((op) => ({
    family: 'management' as const,
    op: op as Operation,
    pattern: toPattern(op.path),
  })),
  ...MESSAGING_OPERATIONS.map((op) => ({
    family: 'messaging' as const,
    op: op as Operation,
    pattern: toPattern(op.path),
  })),
];

/** The operation a request is for, or undefined when neither table has its method and path. */
export function findOperation(method: string, pathname: string): TableOperation | undefined {
  return TABLE.find((entry) => entry.op.method === method && entry.pattern.test(pathname));
}

/** The table entry of an operation id such as `domains.list`; throws when the tables lost it (a renamed id). */
export function operationById(id: string): TableOperation {
  const entry = TABLE.find((e) => e.op.id === id);
  if (!entry) throw new Error(`the operation table has no operation "${id}"`);
  return entry;
}

/** Every operation id, for --ignore's message. */
export const OPERATION_IDS: readonly string[] = TABLE.map((e) => e.op.id);
