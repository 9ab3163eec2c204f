import type { Clock } from '../../src/shared/clock.js';

/** How long stored media lives (spec, Media rules: deleted after 7 days). */
export const MEDIA_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Largest accepted attachment (spec, Limits: up to 1 MB). */
export const MEDIA_MAX_BYTES = 1024 * 1024;
/** Accepted attachment types (spec: JPEG, PNG, WebP photos and PDF documents) and their payload `type`. */
export const ACCEPTED_MEDIA_TYPES: Readonly<Record<string, 'image' | 'document'>> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'application/pdf': 'document',
};
/** Path the mock serves stored media under. */
export const MEDIA_ROUTE_PREFIX = '/__mock/media/';

/** A stored attachment. */
export interface StoredMedia {
  /** Storage key, `tmp/<id>/<file name>` (spec: stored under the `tmp/` prefix). */
  key: string;
  mimeType: string;
  bytes: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/**
 * The mock's object storage for inbound media: items live under `tmp/` and disappear 7 days after they were stored
 * (on the injected clock); the mock serves them at `/__mock/media/tmp/<id>/<file>` until then.
 */
export class MediaStore {
  readonly #items = new Map<string, StoredMedia>();
  readonly #clock: Clock;
  #seq = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Stores bytes; returns the item (its key is what the URL is built from). */
  put(fileName: string, mimeType: string, bytes: Uint8Array): StoredMedia {
    const safe = fileName.replace(/[^\w.-]/g, '_').slice(0, 100) || 'file';
    const now = this.#clock.now();
    const key = `tmp/m${++this.#seq}${now.toString(36)}/${safe}`;
    const item: StoredMedia = { key, mimeType, bytes, storedAt: now, expiresAt: now + MEDIA_RETENTION_MS };
    this.#items.set(key, item);
    return item;
  }

  /** The item stored under `key`, or undefined when unknown or past its 7 days (it is deleted then). */
  get(key: string): StoredMedia | undefined {
    const item = this.#items.get(key);
    if (!item) return undefined;
    if (this.#clock.now() >= item.expiresAt) {
      this.#items.delete(key);
      return undefined;
    }
    return item;
  }

  /** The public URL of an item for a mock reachable at `origin`. */
  url(origin: string, item: StoredMedia): string {
    return `${origin.replace(/\/$/, '')}${MEDIA_ROUTE_PREFIX}${item.key}`;
  }

  /** Forgets every item. */
  clear(): void {
    this.#items.clear();
  }
}
