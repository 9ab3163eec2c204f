import type { RequestOptions } from '../../core/api-client.js';
import type { PagePromise } from '../../core/pagination.js';
import { APIResource } from '../../core/resource.js';
import { listSplashPages } from '../../schemas/operations.js';
import type { PageQuery } from '../../schemas/page.js';
import type { Splash } from '../../schemas/splash.js';
import { listOf } from './shared.js';

/** Custom splash pages: `client.splash` (the API only lists them). */
export class SplashResource extends APIResource {
  /** Lists custom splash pages; iterate the result for every one. */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Splash> {
    return listOf(this._client, listSplashPages, query, options);
  }
}
