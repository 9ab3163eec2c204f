// The OpenAPI description of the mock's own endpoints: the `/__mock/` control API (so a Python or Go suite can generate
// its client), the QR images, stored media and the document itself. Runtime-neutral, like mock/openapi.ts.
import { ACK_STATUS_CODES, DEVICE_STATUSES, EVENT_NAMES } from '../src/schemas/events.js';
import { CHAT_KINDS } from './messaging/chat-kind.js';

/** A JSON value of the document. */
type Json = { [key: string]: unknown };

const json = (schema: unknown) => ({ 'application/json': { schema } });
const object = (properties: Record<string, unknown>, required: string[] = [], description?: string): Json => ({
  type: 'object',
  ...(description && { description }),
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: {},
});
const str = (description?: string, extra: Json = {}): Json => ({
  type: 'string',
  ...(description && { description }),
  ...extra,
});
const int = (description?: string, extra: Json = {}): Json => ({
  type: 'integer',
  ...(description && { description }),
  ...extra,
});
const bool = (description?: string): Json => ({ type: 'boolean', ...(description && { description }) });
const list = (items: unknown, description?: string): Json => ({
  type: 'array',
  items,
  ...(description && { description }),
});
const anyObject = (description: string): Json => ({ type: 'object', description, additionalProperties: {} });

const controlError = { $ref: '#/components/schemas/ControlError' };
const ERRORS = {
  '400': { description: 'Bad input: `field` names it and `rule` says what it must be.', content: json(controlError) },
  '401': { description: 'The control token is missing or wrong.', content: json(controlError) },
};
const NOT_FOUND = { '404': { description: 'No such item.', content: json(controlError) } };

const tenant = str('Workspace id of the messaging API.', { default: 'default' });
const query = (name: string, description: string, schema: Json = { type: 'string' }) => ({
  name,
  in: 'query',
  description,
  schema,
});
const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** One control operation: token-protected, JSON in and out, the control API's error answers. */
function control(
  operationId: string,
  summary: string,
  answer: Json,
  options: { body?: Json; status?: '200' | '201'; parameters?: Json[]; extra?: Record<string, unknown> } = {},
): Json {
  return {
    operationId,
    summary,
    tags: ['control'],
    security: [{ controlToken: [] }],
    ...(options.parameters && { parameters: options.parameters }),
    ...(options.body && { requestBody: { required: false, content: json(options.body) } }),
    responses: {
      [options.status ?? '200']: { description: 'Done.', content: json(answer) },
      ...ERRORS,
      ...options.extra,
    },
  };
}

const webhookInput = object(
  {
    tenant,
    device_id: str('Set a device override instead of the tenant endpoint.'),
    url: str('Receiver URL: HTTPS, or http on loopback (any host with --allow-http-receivers).', { format: 'uri' }),
    secret: str('`whsec_live_` (tenant) or `whsec_dev_` (device) + 32 hex characters; generated when absent.'),
    events: list({ type: 'string', enum: [...EVENT_NAMES] }, 'Events to deliver; absent: the default selection.'),
  },
  ['url'],
);
const deviceInput = object({
  tenant,
  id: str('Device id; generated (`dev_<n>`) when absent.'),
  name: str(),
  phone: str('Digits.'),
  status: str('Starting status.', { enum: [...DEVICE_STATUSES], default: 'ONLINE' }),
});
const fixtureUser = object(
  {
    username: str('4 to 20 letters, digits or underscores.'),
    email: str(undefined, { format: 'email' }),
    password: str('5 or more characters.', { default: 'password' }),
    apikey: str('The user’s API key; generated when absent.'),
    admin: bool('An admin user.'),
  },
  ['username', 'email'],
);
const owned = (what: string, schema: string) => ({
  allOf: [
    { $ref: `#/components/schemas/${schema}` },
    object({ owner: str(`Username of the ${what}’s owner (an existing user or one of this fixture’s users).`) }, [
      'owner',
    ]),
  ],
});
const created = (extra: Record<string, unknown> = {}) =>
  list(object({ id: int(), owner: str(), ...extra }, ['id', 'owner']));

/** An attempt out at a receiver (answers of clock/advance and drain). */
const IN_FLIGHT_ATTEMPT = object(
  {
    deliveryId: str(),
    url: str('The receiver.'),
    attempt: int('1 to 6.'),
    startedAt: int('Clock time it was sent, ms since the epoch.'),
    deadline: int('Clock time it times out (8 s later), ms since the epoch.'),
    waitingMs: int('Real milliseconds it has waited for an answer.'),
  },
  ['deliveryId', 'url', 'attempt', 'startedAt', 'deadline', 'waitingMs'],
);

function configPaths(): Record<string, Json> {
  return {
    '/__mock/': {
      get: control(
        'listControlEndpoints',
        'List the control endpoints (also at /__mock)',
        object({ endpoints: list(str()) }),
      ),
    },
    '/__mock/reset': {
      post: control(
        'resetMock',
        'Put the backend back to its start seed: users, keys and records; rate windows and the gateway cleared',
        object({
          reset: { const: true },
          users: list(object({ id: int(), username: str(), apikey: str(), admin: bool() })),
        }),
      ),
    },
    '/__mock/fixture': {
      post: control(
        'loadFixture',
        'Load users, domains, pixels, QR codes and devices at once, all or nothing, with the management API’s rules',
        object({
          users: list(object({ id: int(), username: str(), apikey: str(), admin: bool() })),
          domains: created(),
          pixels: created(),
          qrs: created({ link: str('The QR image URL.') }),
          devices: list(anyObject('A device as stored.')),
        }),
        {
          status: '201',
          body: {
            type: 'object',
            properties: {
              users: list(fixtureUser),
              domains: list(owned('domain', 'DomainCreate')),
              pixels: list(owned('pixel', 'PixelCreate')),
              qrs: list(owned('QR code', 'QrCreate')),
              devices: list(deviceInput),
            },
            additionalProperties: false,
          },
        },
      ),
    },
    '/__mock/webhooks': {
      post: control('setWebhook', 'Set the tenant’s receiver, or a device override', anyObject('The endpoint set.'), {
        status: '201',
        body: webhookInput,
        extra: NOT_FOUND,
      }),
      get: control(
        'listWebhooks',
        'List receivers (secrets shown by prefix unless redact=0)',
        anyObject('Tenants and devices.'),
        {
          parameters: [query('redact', '`0` shows the secrets in full.')],
        },
      ),
      delete: control(
        'removeWebhook',
        'Remove the tenant’s receiver or a device override',
        object({ removed: bool() }),
        {
          parameters: [
            query('tenant', 'The tenant whose receiver goes.'),
            query('device_id', 'The device whose override goes.'),
          ],
        },
      ),
    },
    '/__mock/devices': {
      post: control('addDevice', 'Add a device', anyObject('The device.'), { status: '201', body: deviceInput }),
      get: control('listDevices', 'List devices', object({ devices: list(anyObject('A device.')) }), {
        parameters: [query('tenant', 'Only this tenant’s.')],
      }),
    },
    '/__mock/keys': {
      post: control(
        'createMessagingKey',
        'Create a messaging API key (the only answer that shows it)',
        anyObject('The key.'),
        {
          status: '201',
          body: object({
            tenant,
            label: str(),
            key: str('`gw_live_` + 24 or more letters or digits; generated when absent.'),
          }),
        },
      ),
      get: control(
        'listMessagingKeys',
        'List messaging keys (previews only)',
        object({ keys: list(anyObject('A key slot.')) }),
        {
          parameters: [query('tenant', 'Only this tenant’s.')],
        },
      ),
    },
    '/__mock/keys/{id}/regenerate': {
      post: control('regenerateMessagingKey', 'Replace a key slot’s key', anyObject('The new key.'), {
        status: '201',
        parameters: [pathParam('id', 'Key slot id, e.g. key_1.')],
        extra: NOT_FOUND,
      }),
    },
    '/__mock/keys/{id}': {
      delete: control('revokeMessagingKey', 'Revoke a messaging key', anyObject('The revoked key slot.'), {
        parameters: [pathParam('id', 'Key slot id, e.g. key_1.')],
        extra: NOT_FOUND,
      }),
    },
    '/__mock/faults': {
      post: control(
        'armFaults',
        'Inject faults into the next deliveries',
        object({ armed: int('Deliveries with faults still armed.') }),
        {
          body: object({
            duplicate: bool('Deliver twice with the same delivery id.'),
            staleTimestamp: { oneOf: [bool(), int('Seconds in the past.', { minimum: 1 })] },
            wrongSecret: bool('Send another secret.'),
            times: int('How many deliveries.', { minimum: 1, maximum: 1000, default: 1 }),
          }),
        },
      ),
    },
    '/__mock/clock/advance': {
      post: control(
        'advanceClock',
        'Move a manual clock (linkgate mock --clock manual)',
        object(
          {
            now: int('ms since the epoch.'),
            inFlight: list(
              IN_FLIGHT_ATTEMPT,
              'Attempts whose receivers have not answered (each got 2 s of real time).',
            ),
          },
          ['now', 'inFlight'],
        ),
        {
          body: object({ ms: int('Milliseconds to move.', { minimum: 0 }) }, ['ms']),
          extra: { '409': { description: 'The server runs on the real clock.', content: json(controlError) } },
        },
      ),
    },
  };
}

function simulationPaths(): Record<string, Json> {
  const simulated = anyObject('What was simulated: the event and its delivery.');
  const simulate = (operationId: string, summary: string, body: Json) =>
    control(operationId, summary, simulated, { body, extra: NOT_FOUND });
  const device_id = str('The device.');
  return {
    '/__mock/simulate/message': {
      post: simulate(
        'simulateMessage',
        'An inbound one-to-one message (message.received)',
        object(
          {
            device_id,
            sender: str('Phone number, digits.'),
            text: str(),
            push_name: str(),
            chat_jid: str(),
            chat_type: str('Non-one-to-one chats are dropped.', { enum: [...CHAT_KINDS] }),
            media: anyObject('`{ mime_type, file_name?, file_size? }`: attached media.'),
          },
          ['device_id', 'sender'],
        ),
      ),
    },
    '/__mock/simulate/ack': {
      post: simulate(
        'simulateAck',
        'A delivery receipt (message.ack)',
        object(
          {
            device_id,
            message_id: str(),
            recipient: str(),
            status: str(undefined, { enum: Object.keys(ACK_STATUS_CODES) }),
          },
          ['device_id', 'message_id', 'recipient', 'status'],
        ),
      ),
    },
    '/__mock/simulate/sent': {
      post: simulate(
        'simulateSent',
        'A dispatch confirmation (message.sent)',
        object({ device_id, message_id: str(), recipient: str(), text: str() }, [
          'device_id',
          'message_id',
          'recipient',
        ]),
      ),
    },
    '/__mock/simulate/status': {
      post: simulate(
        'simulateStatus',
        'A device status change (device.status)',
        object(
          {
            device_id,
            status: str(undefined, { enum: [...DEVICE_STATUSES] }),
            reason: str(),
            heat_score: { type: 'number' },
          },
          ['device_id', 'status'],
        ),
      ),
    },
    '/__mock/simulate/pairing': {
      post: simulate(
        'simulatePairing',
        'The pairing flow: QR frames (device.qr), then a status',
        object({ device_id, action: str(undefined, { enum: ['start', 'scan', 'cancel'], default: 'start' }) }, [
          'device_id',
        ]),
      ),
    },
    '/__mock/drain': {
      post: control(
        'drainDeliveries',
        'Wait until no delivery is in flight or due now',
        object(
          {
            ok: bool('True when nothing is in flight or due now; false when receivers have not answered.'),
            now: int('The clock’s time, ms since the epoch.'),
            inFlight: list(IN_FLIGHT_ATTEMPT, 'Attempts whose receivers have not answered within the grace.'),
            message: str('When `ok` is false: how far to advance a manual clock to time them out.'),
          },
          ['ok', 'now', 'inFlight'],
        ),
      ),
    },
  };
}

function inspectionPaths(): Record<string, Json> {
  const tenantQuery = query('tenant', 'Only this tenant’s.');
  return {
    '/__mock/attempts': {
      get: control(
        'listAttempts',
        'Recorded delivery attempts',
        object({ attempts: list(anyObject('An attempt record.')) }),
        {
          parameters: [
            query('delivery_id', 'Only this delivery’s.'),
            query('url', 'Only to this receiver.'),
            tenantQuery,
            query('redact', '`1` hides X-Service-Secret.'),
          ],
        },
      ),
    },
    '/__mock/circuits': {
      get: control(
        'listCircuits',
        'Circuit state per receiver URL',
        object({ circuits: list(anyObject('A circuit.')) }),
      ),
    },
    '/__mock/scheduled': {
      get: control(
        'listScheduled',
        'Deliveries waiting for their next attempt',
        object({ scheduled: list(anyObject('A scheduled attempt.')) }),
      ),
    },
    '/__mock/dropped': {
      get: control(
        'listDropped',
        'Events not delivered at all (group chats, no endpoint, not selected)',
        object({ dropped: list(anyObject('A dropped event.')) }),
      ),
    },
    '/__mock/dead-letters': {
      get: control(
        'listDeadLetters',
        'The dead-letter queue',
        object({ items: list(anyObject('A dead letter.')), evicted: int() }),
        {
          parameters: [tenantQuery],
        },
      ),
      delete: control('purgeDeadLetters', 'Empty the dead-letter queue', object({ purged: int() }), {
        parameters: [tenantQuery],
      }),
    },
    '/__mock/dead-letters/replay': {
      post: control('replayDeadLetters', 'Replay every dead letter (of a tenant)', anyObject('What was replayed.'), {
        body: object({ tenant }),
      }),
    },
    '/__mock/dead-letters/{id}/replay': {
      post: control(
        'replayDeadLetter',
        'Replay one dead letter, keeping its delivery id',
        anyObject('What was replayed.'),
        {
          parameters: [pathParam('id', 'The delivery id.')],
          extra: NOT_FOUND,
        },
      ),
    },
  };
}

/** The mock's public files: QR images, stored inbound media and this document. No key needed. */
function publicPaths(): Record<string, Json> {
  const binary = (type: string) => ({ [type]: { schema: { type: 'string', contentMediaType: type } } });
  return {
    '/api/qr/image/{file}': {
      get: {
        operationId: 'getQrImage',
        summary: 'A QR code’s PNG (the `link` of a QR code; no key needed)',
        tags: ['qr'],
        parameters: [pathParam('file', '`<token>.png`.')],
        responses: {
          '200': { description: 'The image.', content: binary('image/png') },
          '404': { description: 'No such QR code.', content: json({ $ref: '#/components/schemas/ErrorEnvelope' }) },
        },
      },
    },
    '/__mock/media/tmp/{id}/{file}': {
      get: {
        operationId: 'getStoredMedia',
        summary: 'Inbound media the gateway stored (the `media.url` of a message; 7 days; no token needed)',
        tags: ['control'],
        parameters: [pathParam('id', 'Storage id.'), pathParam('file', 'File name.')],
        responses: {
          '200': {
            description: 'The file, with its content type.',
            content: { '*/*': { schema: { type: 'string' } } },
          },
          '404': { description: 'No such media, or it expired.', content: json(controlError) },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document, with `servers` set to the address asked',
        tags: ['control'],
        responses: { '200': { description: 'The OpenAPI document.', content: json({ type: 'object' }) } },
      },
    },
  };
}

/** The paths of the mock's own endpoints: the control API, QR images, stored media, `/openapi.json`. */
export function mockOwnPaths(): Record<string, Json> {
  return { ...configPaths(), ...simulationPaths(), ...inspectionPaths(), ...publicPaths() };
}

/** Schemas the control API's description refers to. */
export const CONTROL_SCHEMAS: Record<string, Json> = {
  ControlError: object(
    {
      error: str('`invalid_request`, `unauthorized`, `not_found`, `conflict`.'),
      message: str(),
      field: str('The offending field, e.g. `domains[1].domain`.'),
      rule: str('What it must be.'),
    },
    ['error', 'message'],
    'A control API failure.',
  ),
};

/** The control token's security scheme. */
export const CONTROL_SECURITY = {
  controlToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The control token: printed by `linkgate mock` (`--control-token`), `backend.gateway.controlToken` in-process.',
  },
};
