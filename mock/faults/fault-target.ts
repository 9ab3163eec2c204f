// WHAT fails: the operations a fault may name, read from the one operation table of each API, and a fault's target
// (operation, path pattern, method) resolved to the operations it can hit. A target that hits nothing is refused.
import { MANAGEMENT_OPERATIONS } from '../../src/schemas/operations.js';
import { routerPath } from '../http/operation-route.js';
import { MOCK_MESSAGING_OPERATIONS } from '../messaging/messaging-routes.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** Which API an operation belongs to: each answers failures in its own shape. */
export type FaultApi = 'management' | 'messaging';

/** An operation a fault can hit. */
export interface FaultableOperation {
  /** The table's id, e.g. `domains.list` (what the routes carry). */
  id: string;
  /** The document's operationId, e.g. `listDomains`. */
  operationId: string;
  /** HTTP method. */
  method: string;
  /** The path in the router's syntax, e.g. `/api/domain/:id/update`. */
  path: string;
  /** The API it belongs to. */
  api: FaultApi;
}

/** The operations of both APIs that faults can name, by either name. */
export interface FaultCatalogue {
  /** Every operation of the management and messaging APIs. */
  all: readonly FaultableOperation[];
  /** By operationId and by the table's id. */
  byName: ReadonlyMap<string, FaultableOperation>;
}

/**
 * The catalogue of every operation of the management and messaging APIs; `operationIds` gives the document's names
 * (mock/openapi/operation-words.ts, handed in by the backend so this folder does not lean on the document's).
 */
export function faultCatalogue(operationIds: (id: string) => string): FaultCatalogue {
  const faultable = (op: { id: string; method: string; path: string }, api: FaultApi): FaultableOperation => ({
    id: op.id,
    operationId: operationIds(op.id),
    method: op.method,
    path: routerPath(op.path),
    api,
  });
  const all = [
    ...MANAGEMENT_OPERATIONS.map((op) => faultable(op, 'management')),
    ...MOCK_MESSAGING_OPERATIONS.map((op) => faultable(op, 'messaging')),
  ];
  return {
    all,
    byName: new Map(
      all.flatMap((op) => [
        [op.operationId, op],
        [op.id, op],
      ]),
    ),
  };
}

/** The longest path pattern accepted (paths of the APIs are far shorter). */
export const MAX_PATTERN_LENGTH = 512;

/** What a fault names as the calls it hits (any subset; at least one of them). */
export interface FaultTargetInput {
  /** An operationId (`listDomains`) or the SDK's id (`domains.list`). */
  operation?: string | undefined;
  /** A path pattern: `*` or `:name` is one segment, a final `**` is the rest (`/api/qr/*`, `/api/**`). */
  path?: string | undefined;
  /** An HTTP method. */
  method?: string | undefined;
  /** Only the calls of this messaging tenant (the messaging API). */
  tenant?: string | undefined;
  /** Only sends through this device (`sendMessage`). */
  device?: string | undefined;
}

/**
 * The operations a target can hit, or a {@link GatewayInputError} naming the field that left none: an unknown
 * operation, a pattern or method that matches no operation, a tenant or device where the operation has none.
 */
export function resolveTarget(target: FaultTargetInput, catalogue: FaultCatalogue): FaultableOperation[] {
  let ops: FaultableOperation[] = [...catalogue.all];
  if (target.operation !== undefined) {
    const op = catalogue.byName.get(target.operation);
    if (!op) {
      throw new GatewayInputError(
        'operation',
        `must be an operationId of the management or messaging API, e.g. listDomains or sendMessage (GET /openapi.json lists them); "${clip(target.operation)}" is none`,
      );
    }
    ops = [op];
  }
  if (target.path !== undefined) {
    const pattern = target.path;
    if (!pattern.startsWith('/') || pattern.length > MAX_PATTERN_LENGTH) {
      throw new GatewayInputError(
        'path',
        `must be a path pattern starting with "/", at most ${MAX_PATTERN_LENGTH} characters`,
      );
    }
    const segments = splitPath(pattern);
    ops = narrow(
      ops,
      (op) => pathMatches(segments, splitPath(op.path), true),
      'path',
      () =>
        `matches no ${target.operation === undefined ? '' : `path of ${target.operation}, nor any `}operation's path ("${clip(pattern)}"); patterns look like /api/qr/* or /api/v1/**`,
    );
  }
  if (target.method !== undefined) {
    ops = narrow(
      ops,
      (op) => op.method === target.method,
      'method',
      () => `matches no operation named with it (${target.method})`,
    );
  }
  if (target.tenant !== undefined) {
    ops = narrow(
      ops,
      (op) => op.api === 'messaging',
      'tenant',
      () => 'applies to the messaging API only (tenants are its workspaces)',
    );
  }
  if (target.device !== undefined) {
    ops = narrow(
      ops,
      (op) => op.id === 'messages.send',
      'device',
      () => 'applies to sendMessage only (its body names the device)',
    );
  }
  return ops;
}

function narrow(
  ops: FaultableOperation[],
  keep: (op: FaultableOperation) => boolean,
  field: string,
  rule: () => string,
): FaultableOperation[] {
  const kept = ops.filter(keep);
  if (kept.length === 0) throw new GatewayInputError(field, rule());
  return kept;
}

/** A path's segments: `/api/qr/5` -> `['api', 'qr', '5']`. */
export function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

/**
 * Whether a pattern's segments match a path's, one segment at a time (linear, no regular expression): `*` or
 * `:name` matches any one segment, a final `**` any rest. With `template`, the path's `:name` segments match anything
 * too (a pattern is checked against the route table's templates when armed).
 */
export function pathMatches(pattern: readonly string[], path: readonly string[], template = false): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p === '**' && i === pattern.length - 1) return true;
    const s = path[i];
    if (s === undefined) return false;
    if (p === '*' || p.startsWith(':') || (template && s.startsWith(':'))) continue;
    if (p !== s) return false;
  }
  return pattern.length === path.length;
}

/** A value as an error may quote it: cut short. */
function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
