import type { PageData } from '../schemas/page.js';
import { APIPromise } from './api-promise.js';
import { LinkgateError, ValidationError } from './errors.js';

/** Fetches one page by number (undefined: the API's default, page 1). */
export type PageFetcher<T> = (page: number | undefined) => APIPromise<Page<T>>;

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /** Stop after this many items (fewer pages are fetched). @default 10000 */
  max?: number;
}

/**
 * One page of a paged list, with the paging numbers and a way to the next page.
 *
 * @example
 * let page = await client.domains.list({ limit: 50 });
 * while (page.hasNextPage()) page = await page.getNextPage();
 */
export class Page<T> implements PageData<T> {
  /** The records on this page. */
  declare readonly items: T[];
  /** This page's number, 1-based. */
  declare readonly page: number;
  /** Records per page. */
  declare readonly perPage: number;
  /** Total number of records across all pages. */
  declare readonly total: number;
  /** The last page's number (0 when the list is empty). */
  declare readonly maxPage: number;
  /** The next page's number, or null on the last page. */
  declare readonly nextPage: number | null;
  readonly #fetch: PageFetcher<T>;

  /** A page of `data`'s fields (the SDK's are those of {@link PageData}), fetching later pages with `fetch`. */
  constructor(data: PageData<T>, fetch: PageFetcher<T>) {
    Object.assign(this, data);
    this.#fetch = fetch;
  }

  /**
   * Whether another page follows. False on `nextpage` null, on the last page (`currentpage >= maxpage`), on an
   * empty page, or when `nextpage` does not move forward, so iteration ends even when the server misbehaves.
   */
  hasNextPage(): boolean {
    return this.nextPage !== null && this.nextPage > this.page && this.page < this.maxPage && this.items.length > 0;
  }

  /** Fetches the next page; throws when {@link hasNextPage} is false. */
  getNextPage(): APIPromise<Page<T>> {
    if (!this.hasNextPage()) {
      throw new LinkgateError(`Page ${this.page} is the last page (of ${this.maxPage}); check hasNextPage() first.`);
    }
    // hasNextPage() is false on a null nextPage.
    return this.#fetch(this.nextPage as number);
  }

  /** Every item from this page on, fetching later pages as needed. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of iteratePages(this)) yield* page.items;
  }
}

async function* iteratePages<T>(first: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
  let page = first;
  yield page;
  while (page.hasNextPage()) {
    const next = await page.getNextPage();
    // A server that ignores `page` would otherwise be asked for the same page forever.
    if (next.page <= page.page) return;
    page = next;
    yield page;
  }
}

/**
 * What `list()` returns: await it for the first {@link Page}, iterate it for every item of every page, or use
 * {@link pages} / {@link toArray}. When a page fails, the error's `page` says where to resume with `list({ page })`.
 *
 * @example
 * for await (const domain of client.domains.list()) console.log(domain.domain);
 * for await (const page of client.domains.list({ limit: 100 }).pages()) console.log(page.items.length);
 * const first500 = await client.domains.list().toArray({ max: 500 });
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Every page in order, starting with the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* iteratePages(await this);
  }

  /** Every item of every page, in order: the first page's own iteration. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    yield* await this;
  }

  /** Collects items into an array, at most `max` of them. */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    const max = options.max ?? 10_000;
    if (!Number.isInteger(max) || max < 0) {
      const rule = 'must be a non-negative integer';
      throw new ValidationError(`toArray: max ${rule} (got ${String(max)}).`, 'max', rule, [
        { path: ['max'], message: rule },
      ]);
    }
    const out: T[] = [];
    if (max === 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) return out;
    }
    return out;
  }
}
