import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import { validate, validateId } from '../core/validation.js';
import type { PageQuery } from '../schemas/page.js';
import { Pixel, PixelCreate, PixelUpdate } from '../schemas/pixel.js';
import { type ActionResult, type Created, createCall, messageCall, pagedCall } from './shared.js';

/** Tracking pixels: `client.pixels`. */
export class PixelsResource extends APIResource {
  /** Lists tracking pixels; iterate the result for every one. */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Pixel> {
    return this._client.requestPage(
      pagedCall('pixels.list', '/api/pixels', Pixel, ['pixels'], query, options),
      query?.page,
    );
  }

  /**
   * Adds a pixel; `type` must be one of the supported providers.
   * @example
   * await client.pixels.create({ type: 'gtmpixel', name: 'Main GTM', tag: 'GTM-ABC123' });
   */
  create(body: PixelCreate, options?: RequestOptions): APIPromise<Created> {
    return this._client.request(() =>
      createCall('pixels.create', '/api/pixel/add', validate(PixelCreate, body, 'pixels.create', 'body'), options),
    );
  }

  /** Changes a pixel; `tag` is required. */
  update(id: number, body: PixelUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => {
      const checked = validateId(id, 'id', 'pixels.update');
      const data = validate(PixelUpdate, body, 'pixels.update', 'body');
      return messageCall('pixels.update', 'PUT', `/api/pixel/${checked}/update`, data, options);
    });
  }

  /** Deletes a pixel. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() =>
      messageCall(
        'pixels.delete',
        'DELETE',
        `/api/pixel/${validateId(id, 'id', 'pixels.delete')}/delete`,
        undefined,
        options,
      ),
    );
  }
}
