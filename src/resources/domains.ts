import * as z from 'zod/mini';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import { validate, validateId } from '../core/validation.js';
import { Domain, DomainCreate, DomainUpdate } from '../schemas/domain.js';
import type { PageQuery } from '../schemas/page.js';
import { urlString } from '../schemas/rules.js';
import { type ActionResult, type Created, createCall, messageCall, pagedCall } from './shared.js';

const httpUrl = (what: string) => urlString(`must be a full URL starting with http:// or https:// (${what})`, true);

/** The spec's rule for `domain` (a URL with its scheme), on top of the shared body schema. */
const DomainCreateBody = z.object({
  ...DomainCreate.shape,
  domain: httpUrl('the branded domain'),
  redirectroot: z.optional(httpUrl('where visitors of the bare domain go')),
  redirect404: z.optional(httpUrl('the custom 404 redirect')),
});

const DomainUpdateBody = z.object({
  ...DomainUpdate.shape,
  redirectroot: z.optional(httpUrl('where visitors of the bare domain go')),
  redirect404: z.optional(httpUrl('the custom 404 redirect')),
});

/** Branded domains: `client.domains`. */
export class DomainsResource extends APIResource {
  /**
   * Lists branded domains, a page at a time; iterate the result for every domain.
   * @example
   * for await (const d of client.domains.list()) console.log(d.domain);
   */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<Domain> {
    return this._client.requestPage(
      pagedCall('domains.list', '/api/domains', Domain, ['domains'], query, options),
      query?.page,
    );
  }

  /**
   * Adds a branded domain.
   * @example
   * const { id } = await client.domains.create({ domain: 'https://go.example.com', redirectroot: 'https://example.com' });
   */
  create(body: DomainCreate, options?: RequestOptions): APIPromise<Created> {
    return this._client.request(() =>
      createCall(
        'domains.create',
        '/api/domain/add',
        validate(DomainCreateBody, body, 'domains.create', 'body'),
        options,
      ),
    );
  }

  /** Changes a domain's redirects; send any subset. */
  update(id: number, body: DomainUpdate, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() => {
      const checked = validateId(id, 'id', 'domains.update');
      const data = validate(DomainUpdateBody, body, 'domains.update', 'body');
      return messageCall('domains.update', 'PUT', `/api/domain/${checked}/update`, data, options);
    });
  }

  /** Deletes a domain. */
  delete(id: number, options?: RequestOptions): APIPromise<ActionResult> {
    return this._client.request(() =>
      messageCall(
        'domains.delete',
        'DELETE',
        `/api/domain/${validateId(id, 'id', 'domains.delete')}/delete`,
        undefined,
        options,
      ),
    );
  }
}
