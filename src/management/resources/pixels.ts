import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { APIResource } from '../../core/resource.js';
import { createPixel, deletePixel, listPixels, updatePixel } from '../../schemas/operations.js';
import type { PageQuery } from '../../schemas/page.js';
import type { Pixel, PixelCreate, PixelUpdate } from '../../schemas/pixel.js';
import { type ActionResult, type Created, callOf, listOf } from './shared.js';

/** Tracking pixels: `client.pixels`. */
export class PixelsResource extends APIResource {
  /** Lists tracking pixels; iterate the result for every one. */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Pixel> {
    return listOf(this._client, listPixels, query, options);
  }

  /**
   * Adds a pixel; `type` must be one of the supported providers.
   * @example
   * await client.pixels.create({ type: 'gtmpixel', name: 'Main GTM', tag: 'GTM-ABC123' });
   */
  create(body: PixelCreate, options?: RequestOptions): APIPromise<Created> {
    return this._client.request(() => callOf(createPixel, { body, options }));
  }

  /** Changes a pixel; `tag` is required. */
  update(id: number, body: PixelUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(updatePixel, { path: { id }, body, options }));
  }

  /** Deletes a pixel. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(deletePixel, { path: { id }, options }));
  }
}
