// Every endpoint of the management API, declared once (see ./operation.ts). The SDK's resource methods send these,
// the mock serves them (its handlers keyed by `id`) and the OpenAPI document lists them; the document's prose lives
// with the document (mock/openapi/openapi-document.ts), so the SDK bundle does not carry it.
import * as z from 'zod/mini';
import { Account, AccountUpdate } from './account.js';
import { Domain, DomainCreate, DomainUpdate } from './domain.js';
import { CreatedEnvelope, dataEnvelope, MessageEnvelope } from './envelope.js';
import { lazy } from './lazy.js';
import { operation } from './operation.js';
import { Overlay } from './overlay.js';
import { PageQuery, pagedEnvelope } from './page.js';
import { Pixel, PixelCreate, PixelUpdate } from './pixel.js';
import { Plan, PlanSubscription } from './plan.js';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from './primitives.js';
import { Qr, QrCreate, QrCreatedEnvelope, QrDetailEnvelope, QrUpdate } from './qr.js';
import { matching, maxChars, minChars, urlString } from './rules.js';
import { Splash } from './splash.js';
import { User, UserCreate, UserCreatedEnvelope, UserListQuery } from './user.js';

const toMessage = (answer: z.output<typeof MessageEnvelope>) => ({ message: answer.message ?? '' });
const toId = (answer: z.output<typeof CreatedEnvelope>) => ({ id: answer.id });
const toData = <D>(answer: { data: D }) => answer.data;
const itself = <D>(answer: D) => answer;

const httpUrl = (what: string) => urlString(`must be a full URL starting with http:// or https:// (${what})`, true);
const emailRules = () => z.string().check(maxChars(50), matching(EMAIL_PATTERN, 'must be a valid email address'));
const passwordRules = () =>
  z.string().check(minChars(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`));

export const getAccount = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'account.get',
    method: 'GET',
    path: '/api/account',
    response: dataEnvelope(Account),
    select: toData,
  }),
);

export const updateAccount = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'account.update',
    method: 'PUT',
    path: '/api/account/update',
    body: AccountUpdate,
    bodyRules: z.object({
      email: z.optional(emailRules()),
      password: z.optional(passwordRules()),
    }),
    response: MessageEnvelope,
    select: toMessage,
  }),
);

/** The spec's rule for a domain's two redirects (full URLs with their scheme), on create and update alike. */
const domainRedirectRules = () => ({
  redirectroot: z.optional(httpUrl('where visitors of the bare domain go')),
  redirect404: z.optional(httpUrl('the custom 404 redirect')),
});

export const listDomains = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'domains.list',
    method: 'GET',
    path: '/api/domains',
    query: PageQuery,
    response: pagedEnvelope(Domain, ['domains']),
    select: itself,
  }),
);

export const createDomain = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'domains.create',
    method: 'POST',
    path: '/api/domain/add',
    body: DomainCreate,
    // The spec's rule for `domain` (a URL with its scheme), on top of the shared body schema.
    bodyRules: z.object({ ...DomainCreate.shape, domain: httpUrl('the branded domain'), ...domainRedirectRules() }),
    response: CreatedEnvelope,
    select: toId,
  }),
);

export const updateDomain = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'domains.update',
    method: 'PUT',
    path: '/api/domain/{id}/update',
    body: DomainUpdate,
    bodyRules: z.object({ ...DomainUpdate.shape, ...domainRedirectRules() }),
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const deleteDomain = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'domains.delete',
    method: 'DELETE',
    path: '/api/domain/{id}/delete',
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const listSplashPages = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'splash.list',
    method: 'GET',
    path: '/api/splash',
    query: PageQuery,
    response: pagedEnvelope(Splash, ['splash']),
    select: itself,
  }),
);

export const listOverlays = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'overlays.list',
    method: 'GET',
    path: '/api/overlay',
    query: PageQuery,
    // The spec names the collection `cta`; one production version says `overlay`.
    response: pagedEnvelope(Overlay, ['cta', 'overlay']),
    select: itself,
  }),
);

export const listPixels = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'pixels.list',
    method: 'GET',
    path: '/api/pixels',
    query: PageQuery,
    response: pagedEnvelope(Pixel, ['pixels']),
    select: itself,
  }),
);

export const createPixel = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'pixels.create',
    method: 'POST',
    path: '/api/pixel/add',
    body: PixelCreate,
    response: CreatedEnvelope,
    select: toId,
  }),
);

export const updatePixel = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'pixels.update',
    method: 'PUT',
    path: '/api/pixel/{id}/update',
    body: PixelUpdate,
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const deletePixel = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'pixels.delete',
    method: 'DELETE',
    path: '/api/pixel/{id}/delete',
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const listQrCodes = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'qr.list',
    method: 'GET',
    path: '/api/qr',
    query: PageQuery,
    response: pagedEnvelope(Qr, ['qrs']),
    select: itself,
  }),
);

export const getQrCode = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'qr.get',
    method: 'GET',
    path: '/api/qr/{id}',
    response: QrDetailEnvelope,
    select: (answer) => ({ details: answer.details, stats: answer.data }),
  }),
);

export const createQrCode = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'qr.create',
    method: 'POST',
    path: '/api/qr/add',
    body: QrCreate,
    response: QrCreatedEnvelope,
    select: (answer) => ({ id: answer.id, link: answer.link }),
  }),
);

export const updateQrCode = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'qr.update',
    method: 'PUT',
    path: '/api/qr/{id}/update',
    body: QrUpdate,
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const deleteQrCode = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'qr.delete',
    method: 'DELETE',
    path: '/api/qr/{id}/delete',
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const listPlans = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'plans.list',
    method: 'GET',
    path: '/api/plans',
    admin: true,
    response: dataEnvelope(z.array(Plan)),
    select: toData,
  }),
);

export const subscribeUserToPlan = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'plans.subscribe',
    method: 'PUT',
    path: '/api/plan/{planid}/user/{userid}',
    admin: true,
    body: PlanSubscription,
    response: MessageEnvelope,
    select: toMessage,
  }),
);

export const listUsers = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'users.list',
    method: 'GET',
    path: '/api/users',
    admin: true,
    query: UserListQuery,
    response: dataEnvelope(z.array(User)),
    select: toData,
  }),
);

export const getUser = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'users.get',
    method: 'GET',
    path: '/api/user/{id}',
    admin: true,
    response: dataEnvelope(User),
    select: toData,
  }),
);

export const createUser = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'users.create',
    method: 'POST',
    path: '/api/user/add',
    admin: true,
    body: UserCreate,
    bodyRules: z.object({
      ...UserCreate.shape,
      username: z.string().check(matching(USERNAME_PATTERN, 'must be 4-20 letters, digits or underscores')),
      email: emailRules(),
      password: passwordRules(),
    }),
    response: UserCreatedEnvelope,
    select: ({ data }) => ({ id: data.id, email: data.email, username: data.username }),
  }),
);

export const deleteUser = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'users.delete',
    method: 'DELETE',
    path: '/api/user/{id}/delete',
    admin: true,
    response: MessageEnvelope,
    select: toMessage,
  }),
);

/** The management API's operations (Bearer API key, rate limited), in the document's order. */
export const MANAGEMENT_OPERATIONS = [
  getAccount,
  updateAccount,
  listDomains,
  createDomain,
  updateDomain,
  deleteDomain,
  listSplashPages,
  listOverlays,
  listPixels,
  createPixel,
  updatePixel,
  deletePixel,
  listQrCodes,
  getQrCode,
  createQrCode,
  updateQrCode,
  deleteQrCode,
  listPlans,
  subscribeUserToPlan,
  listUsers,
  getUser,
  createUser,
  deleteUser,
] as const;

/** The id of a management operation, e.g. `domains.update`. */
export type ManagementOperationId = (typeof MANAGEMENT_OPERATIONS)[number]['id'];
