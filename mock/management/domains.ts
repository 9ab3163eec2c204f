import { createDomain, type ManagementOperationId, updateDomain } from '../../src/schemas/operations.js';
import { isHttpUrl } from '../../src/schemas/rules.js';
import type { Handlers } from '../http/operation-route.js';
import { RequestRejection, success } from '../http/responses.js';
import { createdId } from './created-id.js';
import { ownedDeleteHandler, ownedListHandler } from './owned-routes.js';
import { ownRow, toDomain } from './records.js';
import { parseWith, readId, readJsonBody } from './request-validation.js';
import type { ManagementContext } from './route-context.js';

const NOT_FOUND = 'Domain not found. Please try again.';
const BAD_DOMAIN = 'A valid domain name is required.';

/** Rejects redirect URLs production would refuse; an empty string means "no redirect". */
function checkRedirects(body: { redirectroot?: string | undefined; redirect404?: string | undefined }): void {
  if (body.redirectroot && !isHttpUrl(body.redirectroot)) {
    throw new RequestRejection('A valid url is required for the root domain.');
  }
  if (body.redirect404 && !isHttpUrl(body.redirect404)) {
    throw new RequestRejection('A valid url is required for the 404 page.');
  }
}

/** Branded domains: list, add, update, delete. */
export const domainHandlers = {
  'domains.list': ownedListHandler({ collection: 'domains', table: 'domains', record: toDomain }),
  'domains.create'({ req, context }) {
    const { core, user } = context;
    const body = parseWith(createDomain.body, readJsonBody(req), {
      message: (issues) => (issues.some((i) => i.field === 'domain') ? BAD_DOMAIN : undefined),
    });
    const domain = body.domain.trim();
    if (!isHttpUrl(domain)) throw new RequestRejection(BAD_DOMAIN);
    checkRedirects(body);
    // Production refuses a host anyone has already added, not only the caller; one index lookup, not a scan.
    if (core.store.domainByHost(domain)) throw new RequestRejection('The domain has been already used.');
    const row = core.store.addDomain(user.id, {
      domain,
      redirectroot: body.redirectroot ?? '',
      redirect404: body.redirect404 ?? '',
    });
    return success({ id: createdId(core, row.id) });
  },
  'domains.update'({ req, params, context }) {
    const id = readId(params);
    const raw = readJsonBody(req);
    const row = ownRow(context.core.store.domains, id, context.user.id, NOT_FOUND);
    const body = parseWith(updateDomain.body, raw);
    if (body.redirectroot === undefined && body.redirect404 === undefined) throw new RequestRejection('No data sent.');
    checkRedirects(body);
    if (body.redirectroot !== undefined) row.redirectroot = body.redirectroot;
    if (body.redirect404 !== undefined) row.redirect404 = body.redirect404;
    return success({ message: 'Domain has been updated successfully.' });
  },
  'domains.delete': ownedDeleteHandler('domains', {
    notFound: NOT_FOUND,
    deleted: 'Domain has been deleted successfully.',
  }),
} satisfies Partial<Handlers<ManagementOperationId, ManagementContext>>;
