import { pagedResponse, readPageRequest } from '../paging.js';
import type { ManagementRoute } from './group.js';
import { ownedBy, toOverlay } from './records.js';

/** `GET /api/overlay`: the caller's call-to-action overlays, paged under the spec's collection name `cta`. */
export const overlayRoutes: ManagementRoute[] = [
  {
    method: 'GET',
    path: '/api/overlay',
    handle: ({ req, context }) =>
      pagedResponse(
        'cta',
        ownedBy(context.core.store.overlays, context.user.id).map(toOverlay),
        readPageRequest(req.query),
      ),
  },
];
