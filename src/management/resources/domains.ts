import type { RequestOptions } from '../../core/api-client.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { APIResource } from '../../core/resource.js';
import type { Domain, DomainCreate, DomainUpdate } from '../../schemas/domain.js';
import { createDomain, deleteDomain, listDomains, updateDomain } from '../../schemas/operations.js';
import type { PageQuery } from '../../schemas/page.js';
import { type ActionResult, type Created, callOf, listOf } from './shared.js';

/** Branded domains: `client.domains`. */
export class DomainsResource extends APIResource {
  /**
   * Lists branded domains, a page at a time; iterate the result for every domain.
   * @example
   * for await (const d of client.domains.list()) console.log(d.domain);
   */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Domain> {
    return listOf(this._client, listDomains, query, options);
  }

  /**
   * Adds a branded domain.
   * @example
   * const { id } = await client.domains.create({ domain: 'https://go.example.com', redirectroot: 'https://example.com' });
   */
  create(body: DomainCreate, options?: RequestOptions): APIPromise<Created> {
    return this._client.request(() => callOf(createDomain, { body, options }));
  }

  /** Changes a domain's redirects; send any subset. */
  update(id: number, body: DomainUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(updateDomain, { path: { id }, body, options }));
  }

  /** Deletes a domain. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => callOf(deleteDomain, { path: { id }, options }));
  }
}
