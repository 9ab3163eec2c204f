import { pagedResponse, readPageRequest } from '../paging.js';
import type { ManagementRoute } from './group.js';
import { ownedBy, toSplash } from './records.js';

/** `GET /api/splash`: the caller's custom splash pages, paged (collection `splash`). */
export const splashRoutes: ManagementRoute[] = [
  {
    method: 'GET',
    path: '/api/splash',
    handle: ({ req, context }) =>
      pagedResponse(
        'splash',
        ownedBy(context.core.store.splash, context.user.id).map(toSplash),
        readPageRequest(req.query),
      ),
  },
];
