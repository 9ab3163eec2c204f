import { success } from '../http/responses.js';
import type { MockRequest } from '../http/types.js';
import { pagedResponse, readPageRequest } from './paging.js';
import { ownedBy, ownRow } from './records.js';
import { readId } from './request-validation.js';
import type { ManagementHost, ManagementRoute } from './route-context.js';

/** What a management endpoint does once its request is let in. */
type ManagementHandle = ManagementRoute['handle'];

import type { DomainRow, OverlayRow, PixelRow, QrRow, SplashRow } from './store.js';

/** The store tables whose rows belong to one user, and their rows. */
interface OwnedRows {
  domains: DomainRow;
  pixels: PixelRow;
  qrs: QrRow;
  splash: SplashRow;
  overlays: OverlayRow;
}

/** A store table whose rows belong to one user. */
export type OwnedTable = keyof OwnedRows;

/** How a list endpoint of user-owned records reads. */
export interface OwnedListSpec<K extends OwnedTable> {
  /** The key the page's items go under in `data` (the documented name), or a function choosing it per backend (variants). */
  collection: string | ((core: ManagementHost) => string);
  /** The table listed. */
  table: K;
  /** The record one row is answered as. */
  record(row: OwnedRows[K], core: ManagementHost, req: MockRequest): unknown;
}

/** A list endpoint's handler: the caller's rows of one table, newest first, paged under the documented collection name. */
export function ownedListHandler<K extends OwnedTable>(spec: OwnedListSpec<K>): ManagementHandle {
  return ({ req, context }) => {
    const rows = ownedBy(context.core.store[spec.table] as unknown as Map<number, OwnedRows[K]>, context.user.id);
    const { core } = context;
    return pagedResponse(
      typeof spec.collection === 'string' ? spec.collection : spec.collection(core),
      rows.map((row) => spec.record(row, core, req)),
      readPageRequest(req.query),
    );
  };
}

/** Production's two answers of a delete endpoint. */
export interface DeleteMessages {
  /** The failure for an unknown id or another user's row (they read alike, so ids of others do not leak). */
  notFound: string;
  /** The success message. */
  deleted: string;
}

/** A delete endpoint's handler (path parameter `id`): deletes the caller's row of one table. */
export function ownedDeleteHandler(table: OwnedTable, messages: DeleteMessages): ManagementHandle {
  return ({ params, context }) => {
    const id = readId(params);
    const rows = context.core.store[table] as unknown as Map<number, { userId: number }>;
    ownRow(rows, id, context.user.id, messages.notFound);
    rows.delete(id);
    return success({ message: messages.deleted });
  };
}
