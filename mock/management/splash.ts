import { ownedListRoute } from './owned-routes.js';
import { toSplash } from './records.js';
import type { ManagementRoute } from './route-context.js';

/** `GET /api/splash`: the caller's custom splash pages, paged (collection `splash`). */
export const splashRoutes: ManagementRoute[] = [
  ownedListRoute({ path: '/api/splash', collection: 'splash', table: 'splash', record: toSplash }),
];
