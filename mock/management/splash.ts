import type { ManagementRoute } from './group.js';
import { ownedListRoute } from './owned-routes.js';
import { toSplash } from './records.js';

/** `GET /api/splash`: the caller's custom splash pages, paged (collection `splash`). */
export const splashRoutes: ManagementRoute[] = [
  ownedListRoute({ path: '/api/splash', collection: 'splash', table: 'splash', record: toSplash }),
];
