import type { ManagementOperationId } from '../../src/schemas/operations.js';
import type { Handlers } from '../http/operation-route.js';
import { ownedListHandler } from './owned-routes.js';
import { toOverlay } from './records.js';
import type { ManagementContext } from './route-context.js';

/**
 * `GET /api/overlay`: the caller's call-to-action overlays, paged under the documented collection name `cta`, or under
 * `overlay` with the `overlayCollection` variant (one production version).
 */
export const overlayHandlers = {
  'overlays.list': ownedListHandler({
    collection: (core) => (core.options.variants.overlayCollection ? 'overlay' : 'cta'),
    table: 'overlays',
    record: toOverlay,
  }),
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
