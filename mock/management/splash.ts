import type { ManagementOperationId } from '../../src/schemas/operations.js';
import type { Handlers } from '../http/operation-route.js';
import { ownedListHandler } from './owned-routes.js';
import { toSplash } from './records.js';
import type { ManagementContext } from './route-context.js';

/** `GET /api/splash`: the caller's custom splash pages, paged (collection `splash`). */
export const splashHandlers = {
  'splash.list': ownedListHandler({ collection: 'splash', table: 'splash', record: toSplash }),
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
