import type { RequestOptions } from '../../core/api-client.js';
import type { PagePromise } from '../../core/pagination.js';
import { APIResource } from '../../core/resource.js';
import { listOverlays } from '../../schemas/operations.js';
import type { Overlay } from '../../schemas/overlay.js';
import type { PageQuery } from '../../schemas/page.js';
import { listOf } from './shared.js';

/** Call-to-action overlays: `client.overlays` (the API only lists them). */
export class OverlaysResource extends APIResource {
  /** Lists overlays; accepts the collection as `cta` (spec) or `overlay` (one production version). */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Overlay> {
    return listOf(this._client, listOverlays, query, options);
  }
}
