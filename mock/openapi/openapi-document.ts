// The OpenAPI 3.1 document of both APIs, generated from the shared zod schemas so it cannot drift from the code.
// Runtime-neutral: no `node:*`, no msw; the mock serves it at /openapi.json and `npm run docs` writes docs/openapi.json.
import * as z from 'zod/mini';
import * as E from '../../src/schemas/events.js';
import * as S from '../../src/schemas/index.js';
import { type Operation, tagOf } from '../../src/schemas/operation.js';
import * as O from '../../src/schemas/operations.js';
import { MANAGEMENT_OPERATIONS } from '../../src/schemas/operations.js';
import { DEFAULT_HEADER_PREFIX, WEBHOOK_USER_AGENT } from '../../src/webhooks/delivery-headers.js';
import { CIRCUIT_OPEN_MS, CIRCUIT_THRESHOLD } from '../delivery/circuit-breaker.js';
import { DEAD_LETTER_CAPACITY } from '../delivery/dead-letter-queue.js';
import { ACK_TIMEOUT_MS } from '../delivery/delivery-attempt.js';
import { RETRY_DELAYS_MS } from '../delivery/retry-schedule.js';
import type { RouteGroup } from '../http/router.js';
import type { MockResponse } from '../http/types.js';
import type { ManagementHost } from '../management/route-context.js';
import {
  listMessagingDevices,
  type MessagingOperationId,
  MOCK_MESSAGING_OPERATIONS,
} from '../messaging/messaging-routes.js';
import { OPERATION_WORDS, QUERY_WORDS, webhookOperationId } from './operation-words.js';
import { CONTROL_SCHEMAS, CONTROL_SECURITY, mockOwnPaths, OPENAPI_OPERATION } from './own-endpoints.js';

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

const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** The component name of each registered schema, so an operation's schemas become references. */
const componentNames = new Map<unknown, string>();

// Every named schema of the document; the registry turns reuse into $refs between components.
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string; description?: string }>();
  const add = (id: string, schema: z.core.$ZodType, description?: string) => {
    componentNames.set(schema, id);
    registry.add(schema, description ? { id, description } : { id });
  };

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
  add('AccountResponse', O.getAccount.response);
  add('AccountUpdate', S.AccountUpdate);
  add('Domain', S.Domain);
  add('DomainPage', O.listDomains.response);
  add('DomainCreate', S.DomainCreate);
  add('DomainUpdate', S.DomainUpdate);
  add('Splash', S.Splash);
  add('SplashPage', O.listSplashPages.response);
  add('Overlay', S.Overlay);
  add('OverlayPage', O.listOverlays.response, 'Collection `cta` (one production version: `overlay`).');
  add('PixelType', S.PixelType);
  add('Pixel', S.Pixel);
  add('PixelPage', O.listPixels.response);
  add('PixelCreate', S.PixelCreate);
  add('PixelUpdate', S.PixelUpdate);
  add('QrType', S.QrType);
  add('QrData', S.QrData);
  add('Qr', S.Qr);
  add('QrStats', S.QrStats);
  add('QrPage', O.listQrCodes.response);
  add('QrDetailEnvelope', S.QrDetailEnvelope);
  add('QrCreate', S.QrCreate);
  add('QrCreatedEnvelope', S.QrCreatedEnvelope);
  add('QrUpdate', S.QrUpdate);
  add('PlanLimits', S.PlanLimits);
  add('Plan', S.Plan);
  add('PlanList', O.listPlans.response);
  add('PlanSubscription', S.PlanSubscription);
  add('User', S.User);
  add('UserResponse', O.getUser.response);
  add('UserList', O.listUsers.response);
  add('UserListQuery', S.UserListQuery);
  add('UserCreate', S.UserCreate);
  add('UserCreatedEnvelope', S.UserCreatedEnvelope);

  add('SendMessage', S.SendMessage);
  add('SendMessageResult', S.SendMessageResult);
  add(
    'DeviceList',
    listMessagingDevices.response,
    `The reference mock's devices of a key's workspace; \`status\` is one of ${S.DEVICE_STATUSES.join(', ')}.`,
  );
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
    // Both booleans as a literal (the SDK's plans use it instead of z.boolean(), to keep a class out of its bundle).
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'boolean' && jsonSchema.enum?.length === 2) delete jsonSchema.enum;
    },
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

/** A schema of an operation as a reference to its component, or a build-time error naming what to register. */
function componentRef(schema: unknown, what: string): Json {
  const id = componentNames.get(schema);
  if (id === undefined) throw new Error(`OpenAPI: ${what} is not a named component; add it in componentSchemas().`);
  return ref(id);
}

/** The path parameters of a template (`/api/plan/{planid}/user/{userid}`), each a positive integer. */
function pathParameters(template: string): Json[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  }));
}

/** The query parameters, read off the operation's query schema (already a component), with their descriptions. */
function queryParameters(op: Operation, schemas: Record<string, Json>): Json[] {
  if (!op.query) return [];
  const id = (componentRef(op.query, `the query of ${op.id}`).$ref as string).split('/').pop() as string;
  const properties = (schemas[id]?.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    ...(QUERY_WORDS[name] && { description: QUERY_WORDS[name] }),
    schema,
  }));
}

/** Parameters, request body and words of one operation, in the document's key order. */
function described(op: Operation, schemas: Record<string, Json>, security: Json[]): Json {
  const words = OPERATION_WORDS[op.id as keyof typeof OPERATION_WORDS];
  const parameters = [...pathParameters(op.path), ...queryParameters(op, schemas)];
  return {
    operationId: words.operationId,
    summary: words.summary,
    ...(words.description && { description: words.description }),
    tags: [tagOf(op)],
    security,
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && {
      requestBody: { required: true, content: json(componentRef(op.body, `the body of ${op.id}`)) },
    }),
  };
}

/** Adds `operation` to `paths` under its template and method. */
function addOperation(paths: Record<string, Json>, op: Operation, operation: Json): void {
  paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operation };
}

/** A management operation: 200 is success-or-failure (production answers most failures on 200), 403 is auth. */
function managementPaths(schemas: Record<string, Json>): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const op of MANAGEMENT_OPERATIONS) {
    const success = componentRef(op.response, `the answer of ${op.id}`);
    addOperation(paths, op, {
      ...described(op, schemas, [{ apiKey: [] }]),
      responses: {
        '200': {
          description:
            'Success (`error` 0) or a failure answered on HTTP 200: validation, not found, and the rate limit (`error` 429).',
          headers: RATE_HEADERS,
          content: json({
            oneOf: [{ allOf: [success, { properties: { error: ref('SuccessFlag') } }] }, ref('ManagementFailure')],
          }),
        },
        '403': {
          description: 'Missing, invalid or expired API key, or a non-admin caller on an admin endpoint.',
          content: json(ref('ManagementFailure')),
        },
      },
    });
  }
  return paths;
}

/** What a messaging operation's success means, and its failures besides the 401 every one of them has. */
const MESSAGING_ANSWERS: Record<MessagingOperationId, { ok: string; failures: Record<string, string> }> = {
  'messages.send': {
    ok: 'The message was queued.',
    failures: {
      '400': 'The body is not JSON or breaks a rule (`error` VALIDATION_ERROR, `field` names it).',
      '404': "`device_id` is not a device of this key's workspace (`DEVICE_NOT_FOUND`).",
      '409': 'The device is not ONLINE, or `auto` found none (`DEVICE_NOT_ONLINE`, `NO_ONLINE_DEVICE`).',
    },
  },
  'devices.list': { ok: "The devices of the key's workspace.", failures: {} },
};

function messagingPaths(schemas: Record<string, Json>): Record<string, Json> {
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
  const paths: Record<string, Json> = {};
  for (const op of MOCK_MESSAGING_OPERATIONS) {
    const { ok, failures } = MESSAGING_ANSWERS[op.id];
    addOperation(paths, op, {
      ...described(op, schemas, [{ messagingKey: [] }]),
      responses: {
        '200': { description: ok, content: json(componentRef(op.response, `the answer of ${op.id}`)) },
        '401': unauthorized,
        ...Object.fromEntries(Object.entries(failures).map(([status, text]) => [status, failure(text)])),
      },
    });
  }
  return paths;
}

// The delivery rules as the engine applies them, written from its constants so the words cannot drift from it.
const seconds = (ms: number) => `${ms / 1000}`;
const DELIVERY_RULES =
  `Answer HTTP 200 within ${seconds(ACK_TIMEOUT_MS)} seconds. A timeout or 5xx is retried after ` +
  `${RETRY_DELAYS_MS.slice(0, -1).map(seconds).join(', ')} and ${seconds(RETRY_DELAYS_MS.at(-1) ?? 0)} s ` +
  `(plus jitter); after ${RETRY_DELAYS_MS.length + 1} failed attempts (the first and ${RETRY_DELAYS_MS.length} retries) ` +
  `the event goes to the dead-letter queue (up to ${DEAD_LETTER_CAPACITY} per tenant); ${CIRCUIT_THRESHOLD} ` +
  `consecutive failures open the circuit for ${seconds(CIRCUIT_OPEN_MS)} s.`;

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
  // `X-Service-Secret` is the webhookSecret security scheme, so generators and Postman send it as the credential.
  const headers = (event: string) => [
    header('User-Agent', 'The webhook engine, version 2.0.', { type: 'string', const: WEBHOOK_USER_AGENT }),
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
        description: DELIVERY_RULES,
        tags: ['webhooks'],
        security: [{ webhookSecret: [] }],
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
 * The components without the operations' query schemas (PageQuery, UserListQuery): their fields are written out as
 * each operation's query parameters, so as components nothing refers to them and linters flag them unused.
 */
function withoutQuerySchemas(schemas: Record<string, Json>): Record<string, Json> {
  const queries = new Set(MANAGEMENT_OPERATIONS.flatMap((op) => (op.query ? [componentNames.get(op.query)] : [])));
  return Object.fromEntries(Object.entries(schemas).filter(([id]) => !queries.has(id)));
}

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
  const paths = { ...managementPaths(components), ...messagingPaths(components), ...mockOwnPaths() };
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
      // The licence of this description, which linkgate generates; the services it describes are not linkgate's.
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.serverUrl ?? 'http://127.0.0.1:4010' }],
    tags: [
      { name: 'account', description: 'The caller’s own account.' },
      { name: 'domains', description: 'Branded domains short links are served on.' },
      { name: 'splash', description: 'Custom splash pages shown before a redirect.' },
      { name: 'overlays', description: 'Call-to-action overlays shown over a redirect.' },
      { name: 'pixels', description: 'Tracking pixels fired on a redirect.' },
      { name: 'qr', description: 'QR codes, their statistics and their images.' },
      { name: 'plans', description: 'Admin only.' },
      { name: 'users', description: 'Admin only.' },
      { name: 'messaging', description: 'The messaging API: send messages through connected devices (/api/v1).' },
      { name: 'webhooks', description: 'Sent by the gateway to your receiver.' },
      {
        name: 'control',
        description:
          'The reference mock’s own API under /__mock/ (not part of the service): set up state, simulate events, inspect deliveries, move a manual clock.',
      },
    ],
    paths,
    webhooks: webhooks(),
    components: {
      schemas: { ...withoutQuerySchemas(components), ...CONTROL_SCHEMAS },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Management API key of a user.' },
        messagingKey: { type: 'http', scheme: 'bearer', description: 'Messaging API key (`gw_live_…`).' },
        webhookSecret: {
          type: 'apiKey',
          in: 'header',
          name: `${DEFAULT_HEADER_PREFIX}Secret`,
          description:
            'The webhook secret the gateway sends with every delivery (`whsec_live_…` tenant, `whsec_dev_…` device); compare it in constant time.',
        },
        ...CONTROL_SECURITY,
      },
    },
  };
}

/** The path the mock serves the document at. */
export const OPENAPI_PATH = OPENAPI_OPERATION.path;

/** Documents already written, by origin: building one costs tens of ms of the single-threaded mock's CPU. */
const documentTexts = new Map<string, string>();
/** Origins come from the Host header, so the cache keeps only the last few. */
const CACHED_ORIGINS = 8;

/** The mock's answer to `GET /openapi.json`: the document with `servers` set to the origin that was asked. */
export function openApiResponse(origin: string): MockResponse {
  let text = documentTexts.get(origin);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument({ serverUrl: origin }));
    if (documentTexts.size >= CACHED_ORIGINS) documentTexts.delete(documentTexts.keys().next().value as string);
    documentTexts.set(origin, text);
  }
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: text };
}

/**
 * The route group serving the document at `GET /openapi.json`, with `servers` set to the address it was asked at.
 * One line in the backend registers it: `router.add(openApiGroup(core))`.
 */
export function openApiGroup(core: Pick<ManagementHost, 'linkBase'>): RouteGroup<undefined> {
  return {
    name: 'openapi',
    routes: [
      {
        method: OPENAPI_OPERATION.method,
        path: OPENAPI_PATH,
        handle: ({ req }) => openApiResponse(core.linkBase(req)),
      },
    ],
    guard: () => ({ ok: true, context: undefined }),
  };
}
