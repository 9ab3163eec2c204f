import { ownedListRoute } from './owned-routes.js';
import { toOverlay } from './records.js';
import type { ManagementRoute } from './route-context.js';

/**
 * `GET /api/overlay`: the caller's call-to-action overlays, paged under the spec's collection name `cta`, or under
 * `overlay` with the `overlayCollection` variant (one production version).
 */
export const overlayRoutes: ManagementRoute[] = [
  ownedListRoute({
    path: '/api/overlay',
    collection: (core) => (core.options.variants.overlayCollection ? 'overlay' : 'cta'),
    table: 'overlays',
    record: toOverlay,
  }),
];
