// The OpenAPI 3.1 document of both APIs, generated from the shared zod schemas so it cannot drift from the code.
// Runtime-neutral: no `node:*`, no msw; the mock serves it at /openapi.json and `npm run docs` writes docs/openapi.json.
import * as z from 'zod/mini';
import * as E from '../src/schemas/events.js';
import * as S from '../src/schemas/index.js';
import { DEFAULT_HEADER_PREFIX, WEBHOOK_USER_AGENT } from '../src/webhooks/delivery-headers.js';
import type { RouteGroup } from './http/router.js';
import type { MockResponse } from './http/types.js';
import type { ManagementHost } from './management/route-context.js';
import { CONTROL_SCHEMAS, CONTROL_SECURITY, mockOwnPaths } from './openapi-control.js';
import { webhookOperationId, withOperationIds } from './openapi-operation-ids.js';

/** A JSON value of the document (schemas, operations, ...). */
type Json = { [key: string]: unknown };

/** An OpenAPI 3.1 document as plain JSON. */
export interface OpenApiDocument {
  /** Always `3.1.1`. */
  openapi: string;
  /** Title, version and description. */
  info: Json;
  /** JSON Schema dialect of every schema in the document. */
  jsonSchemaDialect: string;
  /** Where the APIs are served. */
  servers: { url: string; description?: string }[];
  /** Groups of operations. */
  tags: Json[];
  /** Management and messaging operations by path. */
  paths: Record<string, Json>;
  /** The gateway's outgoing webhook deliveries, one per event name. */
  webhooks: Record<string, Json>;
  /** Shared schemas and security schemes. */
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /**
   * Base URL written into `servers`; the mock passes the origin the request came to.
   * @default 'http://127.0.0.1:4010'
   */
  serverUrl?: string;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

// Every named schema of the document; the registry turns reuse into $refs between components.
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string; description?: string }>();
  const add = (id: string, schema: z.core.$ZodType, description?: string) =>
    registry.add(schema, description ? { id, description } : { id });

  add('Count', S.Count, 'An integer; some production versions send it as a string of digits.');
  add('DateString', S.DateString, 'A date written `YYYY-MM-DD HH:MM:SS` (UTC).');
  add('DateTimeInput', S.DateTimeInput, 'A date in request bodies: exactly `YYYY-MM-DD HH:MM:SS`.');
  add('SuccessFlag', S.SuccessFlag, '`error` of a success answer: `0`, or `"0"` in paged lists.');
  add('RgbColour', S.RgbColour);
  add('ErrorEnvelope', S.ErrorEnvelope);
  add('MessageEnvelope', S.MessageEnvelope);
  add('CreatedEnvelope', S.CreatedEnvelope);
  add('PageQuery', S.PageQuery);

  add('Account', S.Account);
  add('AccountResponse', S.dataEnvelope(S.Account));
  add('AccountUpdate', S.AccountUpdate);
  add('Domain', S.Domain);
  add('DomainPage', S.pagedEnvelope(S.Domain, ['domains']));
  add('DomainCreate', S.DomainCreate);
  add('DomainUpdate', S.DomainUpdate);
  add('Splash', S.Splash);
  add('SplashPage', S.pagedEnvelope(S.Splash, ['splash']));
  add('Overlay', S.Overlay);
  add(
    'OverlayPage',
    S.pagedEnvelope(S.Overlay, ['cta', 'overlay']),
    'Collection `cta` (one production version: `overlay`).',
  );
  add('PixelType', S.PixelType);
  add('Pixel', S.Pixel);
  add('PixelPage', S.pagedEnvelope(S.Pixel, ['pixels']));
  add('PixelCreate', S.PixelCreate);
  add('PixelUpdate', S.PixelUpdate);
  add('QrType', S.QrType);
  add('QrData', S.QrData);
  add('Qr', S.Qr);
  add('QrStats', S.QrStats);
  add('QrPage', S.pagedEnvelope(S.Qr, ['qrs']));
  add('QrDetailEnvelope', S.QrDetailEnvelope);
  add('QrCreate', S.QrCreate);
  add('QrCreatedEnvelope', S.QrCreatedEnvelope);
  add('QrUpdate', S.QrUpdate);
  add('PlanLimits', S.PlanLimits);
  add('Plan', S.Plan);
  add('PlanList', S.dataEnvelope(z.array(S.Plan)));
  add('PlanSubscription', S.PlanSubscription);
  add('User', S.User);
  add('UserResponse', S.dataEnvelope(S.User));
  add('UserList', S.dataEnvelope(z.array(S.User)));
  add('UserListQuery', S.UserListQuery);
  add('UserCreate', S.UserCreate);
  add('UserCreatedEnvelope', S.UserCreatedEnvelope);

  add('SendMessage', S.SendMessage);
  add('SendMessageResult', S.SendMessageResult);
  add(
    'MessagingError',
    S.MessagingUnauthorized,
    'A messaging API failure: `success` false, a `message` and an `error` code.',
  );

  add('Media', E.Media);
  add('MessageReceivedEvent', E.MessageReceivedEvent);
  add('MessageAckEvent', E.MessageAckEvent);
  add('MessageSentEvent', E.MessageSentEvent);
  add('DeviceStatusEvent', E.DeviceStatusEvent);
  add('DeviceQrEvent', E.DeviceQrEvent);
  add('WebhookEvent', E.WebhookEvent);

  // `input`: the wire form. Requests are what callers send; answers are what the SDK reads before its transforms.
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  // The two halves of every management answer: success carries the SuccessFlag, failure anything else.
  out.ManagementFailure = {
    description: 'A failure: `error` is 1 (429 when rate limited, with `Retry-After` seconds) and `message` says why.',
    allOf: [ref('ErrorEnvelope'), { type: 'object', properties: { error: { not: ref('SuccessFlag') } } }],
  };
  out.WebhookAck = {
    description: 'What a receiver answers with HTTP 200 (spec: a JSON object with `status`; `success` for QR frames).',
    type: 'object',
    properties: { status: { type: 'string', examples: ['success'] } },
    required: ['status'],
    additionalProperties: {},
  };
  return out;
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window (30).', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in this window, never below 0 (older production versions sent -1 when over the limit).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Unix time in seconds when the window ends.', schema: { type: 'integer' } },
};

const json = (schema: unknown) => ({ 'application/json': { schema } });

/** A management operation: 200 is success-or-failure (production answers most failures on 200), 403 is auth. */
function management(summary: string, tag: string, success: string, extra: Json = {}): Json {
  return {
    summary,
    tags: [tag],
    security: [{ apiKey: [] }],
    ...extra,
    responses: {
      '200': {
        description:
          'Success (`error` 0) or a failure answered on HTTP 200: validation, not found, and the rate limit (`error` 429).',
        headers: RATE_HEADERS,
        content: json({
          oneOf: [{ allOf: [ref(success), { properties: { error: ref('SuccessFlag') } }] }, ref('ManagementFailure')],
        }),
      },
      '403': {
        description: 'Missing, invalid or expired API key, or a non-admin caller on an admin endpoint.',
        content: json(ref('ManagementFailure')),
      },
    },
  };
}

const body = (schema: string) => ({ requestBody: { required: true, content: json(ref(schema)) } });
const idParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
});
const withIds = (...names: string[]) => ({ parameters: names.map(idParam) });
const pageParams = {
  parameters: [
    {
      name: 'limit',
      in: 'query',
      description: 'Records per page (default 15).',
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'page',
      in: 'query',
      description: 'Page number, 1-based (default 1).',
      schema: { type: 'integer', minimum: 1 },
    },
  ],
};

function managementPaths(): Record<string, Json> {
  return {
    '/api/account': { get: management('Read the caller’s account', 'account', 'AccountResponse') },
    '/api/account/update': {
      put: management('Change the caller’s email or password', 'account', 'MessageEnvelope', body('AccountUpdate')),
    },
    '/api/domains': { get: management('List branded domains', 'domains', 'DomainPage', pageParams) },
    '/api/domain/add': { post: management('Add a branded domain', 'domains', 'CreatedEnvelope', body('DomainCreate')) },
    '/api/domain/{id}/update': {
      put: management('Change a domain’s redirects', 'domains', 'MessageEnvelope', {
        ...withIds('id'),
        ...body('DomainUpdate'),
      }),
    },
    '/api/domain/{id}/delete': {
      delete: management('Delete a branded domain', 'domains', 'MessageEnvelope', withIds('id')),
    },
    '/api/splash': { get: management('List custom splash pages', 'splash', 'SplashPage', pageParams) },
    '/api/overlay': { get: management('List call-to-action overlays', 'overlays', 'OverlayPage', pageParams) },
    '/api/pixels': { get: management('List tracking pixels', 'pixels', 'PixelPage', pageParams) },
    '/api/pixel/add': { post: management('Add a tracking pixel', 'pixels', 'CreatedEnvelope', body('PixelCreate')) },
    '/api/pixel/{id}/update': {
      put: management('Change a pixel', 'pixels', 'MessageEnvelope', { ...withIds('id'), ...body('PixelUpdate') }),
    },
    '/api/pixel/{id}/delete': { delete: management('Delete a pixel', 'pixels', 'MessageEnvelope', withIds('id')) },
    '/api/qr': { get: management('List QR codes', 'qr', 'QrPage', pageParams) },
    '/api/qr/{id}': { get: management('Read a QR code and its statistics', 'qr', 'QrDetailEnvelope', withIds('id')) },
    '/api/qr/add': { post: management('Create a QR code', 'qr', 'QrCreatedEnvelope', body('QrCreate')) },
    '/api/qr/{id}/update': {
      put: management('Change a QR code', 'qr', 'MessageEnvelope', { ...withIds('id'), ...body('QrUpdate') }),
    },
    '/api/qr/{id}/delete': { delete: management('Delete a QR code', 'qr', 'MessageEnvelope', withIds('id')) },
    '/api/plans': { get: management('List plans (admin)', 'plans', 'PlanList') },
    '/api/plan/{planid}/user/{userid}': {
      put: management('Subscribe a user to a plan (admin)', 'plans', 'MessageEnvelope', {
        ...withIds('planid', 'userid'),
        ...body('PlanSubscription'),
      }),
    },
    '/api/users': {
      get: management('List users (admin)', 'users', 'UserList', {
        parameters: [{ name: 'filter', in: 'query', schema: { type: 'string', enum: [...S.USER_FILTERS] } }],
      }),
    },
    '/api/user/{id}': { get: management('Read a user (admin)', 'users', 'UserResponse', withIds('id')) },
    '/api/user/add': {
      post: management('Register a user (admin)', 'users', 'UserCreatedEnvelope', body('UserCreate')),
    },
    '/api/user/{id}/delete': { delete: management('Delete a user (admin)', 'users', 'MessageEnvelope', withIds('id')) },
  };
}

function messagingPaths(): Record<string, Json> {
  const failure = (description: string) => ({ description, content: json(ref('MessagingError')) });
  const unauthorized = {
    description: 'The header is missing, or the key is unknown or revoked (always exactly this body).',
    content: json({
      allOf: [
        ref('MessagingError'),
        {
          properties: {
            success: { const: S.INVALID_API_KEY_BODY.success },
            message: { const: S.INVALID_API_KEY_BODY.message },
            error: { const: S.INVALID_API_KEY_BODY.error },
          },
        },
      ],
    }),
  };
  return {
    '/api/v1/wa/messages/send': {
      post: {
        summary: 'Send a one-to-one message through a connected device',
        description: "`device_id` may be `auto`: the first ONLINE device of the key's workspace.",
        tags: ['messaging'],
        security: [{ messagingKey: [] }],
        ...body('SendMessage'),
        responses: {
          '200': { description: 'The message was queued.', content: json(ref('SendMessageResult')) },
          '400': failure('The body is not JSON or breaks a rule (`error` VALIDATION_ERROR, `field` names it).'),
          '401': unauthorized,
          '404': failure("`device_id` is not a device of this key's workspace (`DEVICE_NOT_FOUND`)."),
          '409': failure('The device is not ONLINE, or `auto` found none (`DEVICE_NOT_ONLINE`, `NO_ONLINE_DEVICE`).'),
        },
      },
    },
    '/api/v1/wa/devices': {
      get: {
        summary: "List the workspace's devices (reference mock; the spec does not show this endpoint)",
        tags: ['messaging'],
        security: [{ messagingKey: [] }],
        responses: {
          '200': {
            description: "The devices of the key's workspace.",
            content: json({
              type: 'object',
              properties: {
                success: { const: true },
                data: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      device_id: { type: 'string' },
                      name: { type: 'string' },
                      phone: { type: 'string' },
                      status: { type: 'string', examples: [...S.DEVICE_STATUSES] },
                    },
                    required: ['device_id', 'status'],
                    additionalProperties: {},
                  },
                },
              },
              required: ['success', 'data'],
              additionalProperties: {},
            }),
          },
          '401': unauthorized,
        },
      },
    },
  };
}

const EVENT_SCHEMAS: Record<E.EventName, string> = {
  'message.received': 'MessageReceivedEvent',
  'message.ack': 'MessageAckEvent',
  'message.sent': 'MessageSentEvent',
  'device.status': 'DeviceStatusEvent',
  'device.qr': 'DeviceQrEvent',
};

function webhooks(): Record<string, Json> {
  const p = DEFAULT_HEADER_PREFIX;
  const header = (name: string, description: string, schema: Json = { type: 'string' }) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
  });
  const headers = (event: string) => [
    header('User-Agent', 'The webhook engine, version 2.0.', { type: 'string', const: WEBHOOK_USER_AGENT }),
    header(`${p}Secret`, 'The webhook secret (`whsec_live_…` tenant, `whsec_dev_…` device); compare in constant time.'),
    header(`${p}Delivery-ID`, 'A ULID, the same across retries and replays of one event: use it to drop duplicates.'),
    header(`${p}Event`, 'The event name.', { type: 'string', const: event }),
    header(`${p}Device-ID`, 'The device the event belongs to.'),
    header(`${p}Timestamp`, 'Unix seconds of this attempt.', { type: 'string', pattern: '^\\d+$' }),
  ];
  const out: Record<string, Json> = {};
  for (const event of E.EVENT_NAMES) {
    out[event] = {
      post: {
        operationId: webhookOperationId(event),
        summary: `The gateway delivers a ${event} event`,
        description:
          'Answer HTTP 200 within 8 seconds. A timeout or 5xx is retried after 3, 6, 12, 24 and 48 s (plus jitter); ' +
          'after 5 failed attempts the event goes to the dead-letter queue; 5 consecutive failures open the circuit for 30 s.',
        tags: ['webhooks'],
        parameters: headers(event),
        requestBody: { required: true, content: json(ref(EVENT_SCHEMAS[event])) },
        responses: { '200': { description: 'Received.', content: json(ref('WebhookAck')) } },
      },
    };
  }
  return out;
}

let components: Record<string, Json> | undefined;

/**
 * Builds the OpenAPI 3.1 document of the management API, the messaging send endpoint and the gateway's webhooks,
 * from the same zod schemas the SDK and the mock use. Answers are described as open objects (tolerant readers).
 *
 * @example
 * const doc = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:4010' });
 * doc.paths['/api/domains'];
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  components ??= componentSchemas();
  return {
    openapi: '3.1.1',
    info: {
      title: 'Link-management API and messaging gateway (linkgate reference)',
      version: '3.0.0',
      description:
        'Management API v3 (paths under /api, Bearer API key, 30 requests per minute per key), the messaging API ' +
        'send endpoint (/api/v1, messaging key), the webhooks the gateway (engine 2.0) delivers, and the reference ' +
        "mock's own control API (/__mock/, control token). Generated by linkgate from the schemas its SDK and " +
        'reference mock use.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.serverUrl ?? 'http://127.0.0.1:4010' }],
    tags: [
      { name: 'account' },
      { name: 'domains' },
      { name: 'splash' },
      { name: 'overlays' },
      { name: 'pixels' },
      { name: 'qr' },
      { name: 'plans', description: 'Admin only.' },
      { name: 'users', description: 'Admin only.' },
      { name: 'messaging' },
      { name: 'webhooks', description: 'Sent by the gateway to your receiver.' },
      {
        name: 'control',
        description:
          'The reference mock’s own API under /__mock/ (not part of the service): set up state, simulate events, inspect deliveries, move a manual clock.',
      },
    ],
    paths: withOperationIds({ ...managementPaths(), ...messagingPaths(), ...mockOwnPaths() }) as Record<string, Json>,
    webhooks: webhooks(),
    components: {
      schemas: { ...components, ...CONTROL_SCHEMAS },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Management API key of a user.' },
        messagingKey: { type: 'http', scheme: 'bearer', description: 'Messaging API key (`gw_live_…`).' },
        ...CONTROL_SECURITY,
      },
    },
  };
}

/** The path the mock serves the document at. */
export const OPENAPI_PATH = '/openapi.json';

/** The mock's answer to `GET /openapi.json`: the document with `servers` set to the origin that was asked. */
export function openApiResponse(origin: string): MockResponse {
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(buildOpenApiDocument({ serverUrl: origin })),
  };
}

/**
 * The route group serving the document at `GET /openapi.json`, with `servers` set to the address it was asked at.
 * One line in the backend registers it: `router.add(openApiGroup(core))`.
 */
export function openApiGroup(core: Pick<ManagementHost, 'linkBase'>): RouteGroup<undefined> {
  return {
    name: 'openapi',
    routes: [{ method: 'GET', path: OPENAPI_PATH, handle: ({ req }) => openApiResponse(core.linkBase(req)) }],
    guard: () => ({ ok: true, context: undefined }),
  };
}
