import type { Gateway } from '../gateway/gateway.js';
import { ownRoutePath } from '../http/own-operation.js';
import { json } from '../http/responses.js';
import type { RouteGroup } from '../http/router.js';
import { MEDIA_ROUTE_PREFIX } from '../messaging/media-store.js';
import { STORED_MEDIA_OPERATION } from './control-operations.js';

/**
 * Serves stored inbound media at `/__mock/media/tmp/<id>/<file>` without a token (receivers download it like
 * object-storage links); 404 once the 7 days have passed.
 */
export function mediaGroup(gateway: Gateway): RouteGroup<undefined> {
  return {
    name: 'media',
    owns: (path) => path.startsWith(MEDIA_ROUTE_PREFIX),
    guard: () => ({ ok: true, context: undefined }),
    notFound: () => json(404, { error: 'not_found', message: 'No such media (or it expired after 7 days).' }),
    routes: [
      {
        method: STORED_MEDIA_OPERATION.method,
        path: ownRoutePath(STORED_MEDIA_OPERATION),
        handle({ req }) {
          const key = decodeURIComponent(req.path.slice(MEDIA_ROUTE_PREFIX.length));
          const item = gateway.media.get(key);
          if (!item) return json(404, { error: 'not_found', message: 'No such media (or it expired after 7 days).' });
          return {
            status: 200,
            headers: { 'Content-Type': item.mimeType, 'Cache-Control': 'private, max-age=0' },
            body: item.bytes,
          };
        },
      },
    ],
  };
}
