import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { APIResource } from '../../core/resource.js';
import { createQrCode, deleteQrCode, getQrCode, listQrCodes, updateQrCode } from '../../schemas/operations.js';
import type { PageQuery } from '../../schemas/page.js';
import type { Qr, QrCreate, QrStats, QrUpdate } from '../../schemas/qr.js';
import { type ActionResult, callOf, listOf } from './shared.js';

/** A single QR code with its scan statistics. */
export interface QrWithStats {
  /** The QR record. */
  details: Qr;
  /** Scan statistics. */
  stats: QrStats;
}

/** A newly created QR code. */
export interface QrCreated {
  /** The new code's id. */
  id: number;
  /** URL of the QR code. */
  link: string;
}

/** QR codes: `client.qr`. */
export class QrResource extends APIResource {
  /** Lists QR codes; iterate the result for every one. */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Qr> {
    return listOf(this._client, listQrCodes, query, options);
  }

  /** Reads one QR code and its statistics. */
  get(id: number, options?: RequestOptions): APIPromise<QrWithStats> {
    return this._client.request(() => callOf(getQrCode, { path: { id }, options }));
  }

  /**
   * Creates a QR code; `data` must fit `type` (a URL for `link`, `{ ssid, pass, encryption }` for `wifi`, ...).
   * @example
   * const { id, link } = await client.qr.create({ type: 'link', data: 'https://example.com' });
   */
  create(body: QrCreate, options?: RequestOptions): APIPromise<QrCreated> {
    return this._client.request(() => callOf(createQrCode, { body, options }));
  }

  /** Changes a QR code's content or colours; `data` is required. */
  update(id: number, body: QrUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(updateQrCode, { path: { id }, body, options }));
  }

  /** Deletes a QR code. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(deleteQrCode, { path: { id }, options }));
  }
}
