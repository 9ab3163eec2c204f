// Every endpoint of the `/__mock/` control API, declared once, in zod like the product's operations: the routes take
// method, path and status from here and parse body, path and query with it before the handler runs
// (mock/control/control-routes.ts, state-routes.ts, media-routes.ts; handlers keyed by `id`), the OpenAPI document
// renders the same schemas (mock/openapi/own-endpoints.ts), and the index at `GET /__mock/` takes its lines. To add an endpoint, add a row
// to CONTROL_OPERATIONS and its handler: a row without a handler, or a handler without a row, fails to compile. An
// endpoint served outside the router (not JSON) is a row of its own like STORED_MEDIA_OPERATION, listed in mockOwnPaths.
import * as z from 'zod/mini';
import { ACK_STATUS_CODES, DEVICE_STATUSES, EVENT_NAMES } from '../../src/schemas/events.js';
import { FIRED_KEPT, MAX_ARMED_FAULTS } from '../faults/fault-book.js';
import { API_FAULT, DELIVERY_FAULT, FAULT_KINDS, FAULT_PLAN } from '../faults/fault-input.js';
import { checkedElsewhere, input, oneOf, requiredText, text, whole } from '../http/own-input.js';
import {
  anyObject,
  bool,
  component,
  int,
  json,
  list,
  type OwnOperation,
  object,
  ownRoutePath,
  str,
} from '../http/own-operation.js';
import { CHAT_KINDS, type ChatKind } from '../messaging/chat-kind.js';
import { DEFAULT_TENANT } from '../messaging/messaging-keyring.js';

const controlError = component('ControlError');
const ERRORS = {
  '400': { description: 'Bad input: `field` names it and `rule` says what it must be.', content: json(controlError) },
  '401': { description: 'The control token is missing or wrong.', content: json(controlError) },
};
const NOT_FOUND = { '404': { description: 'No such item.', content: json(controlError) } };

/** What a control row says besides its method, path, summary and answer. */
interface ControlDetails {
  /** The JSON body it reads, in zod: the route parses with it. */
  body?: z.core.$ZodType;
  /** The status of success. @default 200 */
  status?: 200 | 201;
  /** Path parameters, in zod. */
  params?: z.core.$ZodType;
  /** Query parameters, in zod. */
  query?: z.core.$ZodType;
  /** Failure answers besides 400 and 401. */
  extra?: Record<string, unknown>;
  /** What the index at `GET /__mock/` shows after method and path. */
  hint?: string;
}

/** One control operation: token-protected, JSON in and out, the control API's error answers. */
function control<const I extends string>(
  id: I,
  method: OwnOperation['method'],
  path: string,
  summary: string,
  answer: z.core.$ZodType,
  details: ControlDetails = {},
): OwnOperation<I> {
  const status = details.status ?? 200;
  return {
    id,
    method,
    path,
    summary,
    tag: 'control',
    token: true,
    status,
    ...(details.params && { params: details.params }),
    ...(details.query && { query: details.query }),
    ...(details.body && { body: details.body }),
    ...(details.hint && { hint: details.hint }),
    responses: { [status]: { description: 'Done.', content: json(answer) }, ...ERRORS, ...details.extra },
  };
}

/** A workspace of the messaging API, with checkTenant's rule (messaging-keyring.ts); `default` when absent. */
const TENANT_RULE = 'must be 1-64 letters, digits, "_", "-" or "."';
const TENANT = z
  .string({ error: TENANT_RULE })
  .check(
    z.regex(/^[\w.-]{1,64}$/, { error: TENANT_RULE }),
    z.meta({ description: 'Workspace id of the messaging API.' }),
  );
const tenantField = () => z._default(TENANT, DEFAULT_TENANT);
/** A query filtering by tenant: any name (one no tenant has lists nothing). */
const BY_TENANT = input({ tenant: text('Only this tenant’s.') });
const KEY_SLOT = input({ id: requiredText('Key slot id, e.g. key_1.') });

// Each field's rule is worded as the gateway's own check words it (the in-process API keeps those checks).
const WEBHOOK_INPUT = input({
  tenant: tenantField(),
  device_id: text('Set a device override instead of the tenant endpoint.'),
  url: requiredText('Receiver URL: HTTPS, or http on loopback (any host with --allow-http-receivers).', {
    format: 'uri',
    error: 'is required and must be a string',
  }),
  secret: text('`whsec_live_` (tenant) or `whsec_dev_` (device) + 32 hex characters; generated when absent.', {
    error: 'must be "whsec_live_" (tenant) or "whsec_dev_" (device) followed by 32 hex characters',
  }),
  events: z.optional(
    z
      .array(z.enum(EVENT_NAMES, { error: `must be one of ${EVENT_NAMES.join(', ')}` }), {
        error: `must be an array of event names (${EVENT_NAMES.join(', ')})`,
      })
      .check(z.meta({ description: 'Events to deliver; absent: the default selection.' })),
  ),
});
const DEVICE_INPUT = input({
  tenant: tenantField(),
  id: text('Device id; generated (`dev_<n>`) when absent.', {
    error: 'must be 1-64 letters, digits, "_", "-", "." or ":"',
  }),
  name: text(undefined, { error: 'must be a non-empty string' }),
  phone: text('Digits.', { error: 'must be 6-20 digits' }),
  status: oneOf(DEVICE_STATUSES, 'Starting status.', { fallback: 'ONLINE' }),
});
const FIXTURE_ID =
  'The id to keep (a recording keeps the deployment’s): free, and not below the table’s next id; given when absent.';
const fixtureUser = object(
  {
    username: str('4 to 20 letters, digits or underscores.'),
    email: str(undefined, { format: 'email' }),
    password: str('5 or more characters.', { default: 'password' }),
    apikey: str('The user’s API key; generated when absent.'),
    admin: bool('An admin user.'),
    id: int(FIXTURE_ID),
  },
  ['username', 'email'],
);
const owned = (what: string, schema: string) =>
  z.intersection(
    component(schema),
    object(
      {
        owner: str(`Username of the ${what}’s owner (an existing user or one of this fixture’s users).`),
        id: int(FIXTURE_ID),
      },
      ['owner'],
    ),
  );
const created = (extra: Record<string, z.core.$ZodType> = {}) =>
  list(object({ id: int(), owner: str(), ...extra }, ['id', 'owner']));
const seededUsers = list(object({ id: int(), username: str(), apikey: str(), admin: bool() }));

/**
 * A snapshot of the whole state (`GET`/`PUT /__mock/snapshot`, `backend.snapshot()`, the `--state` file). Not in it:
 * attempts in flight, scheduled retries, the clock, rate windows, recorded attempts, circuits and the control token.
 */
const SNAPSHOT = object(
  {
    format: z.literal('linkgate-mock-state').check(z.meta({ description: 'What the document is.' })),
    version: z.literal(1).check(z.meta({ description: 'The snapshot format; this linkgate reads 1.' })),
    store: anyObject(
      'Tables users, domains, pixels, qrs, splash, overlays, plans (rows as the mock stores them) and nextIds.',
    ),
    gateway: anyObject(
      'keys (slots with SHA-256 digests of the keys), devices, webhooks (with secrets) and deadLetters, each with its id counter.',
    ),
  },
  ['format', 'version', 'store', 'gateway'],
  'The whole state of a mock backend.',
);

/** An armed API fault, as lists show it (mock/faults/fault-book.ts). */
const ARMED_FAULT = object(
  {
    id: str('`f1`, `f2`...: named in the request log and the inspector.'),
    name: str(),
    fault: z.enum(FAULT_KINDS).check(z.meta({ description: 'How the call fails.' })),
    operations: list(str(), 'The operationIds it can hit.'),
    target: anyObject('What was given: operation, path, method, apiKey (last 4 characters), tenant, device.'),
    details: anyObject('The kind’s details as given.'),
    times: z.union([int(), z.literal('always')]),
    nth: int(),
    chance: z.number(),
    seed: int('Give it back to repeat the run.'),
    activeFrom: int('Mock time, ms since the epoch.'),
    activeUntil: z.nullable(int()),
    seen: int('Matching calls seen.'),
    fired: int('Calls failed.'),
  },
  ['id', 'fault', 'operations', 'times', 'nth', 'chance', 'seed', 'seen', 'fired'],
  'An armed API fault.',
);

/** A call a fault changed. */
const FIRED_FAULT = object(
  { at: int(), rule: str(), name: str(), fault: str(), operation: str(), method: str(), path: str() },
  ['at', 'rule', 'fault', 'operation', 'method', 'path'],
);

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

/** A dead letter: its delivery as the gateway last sent it, and why it gave up. */
const DEAD_LETTER = object(
  {
    deliveryId: str('The `X-Service-Delivery-ID`, kept on replay.'),
    event: z.enum(EVENT_NAMES).check(z.meta({ description: 'The event name.' })),
    body: str('The JSON body as sent: one of the webhook events.', {
      contentMediaType: 'application/json',
      contentSchema: { $ref: '#/components/schemas/WebhookEvent' },
    }),
    reason: z.enum(['exhausted', 'rejected']).check(
      z.meta({
        description: '`exhausted`: 6 failed attempts; `rejected`: the receiver answered neither 200 nor 5xx.',
      }),
    ),
  },
  ['deliveryId', 'event', 'body', 'reason'],
  'A dead letter.',
);

const simulated = anyObject('What was simulated: the event and its delivery.');
const simulate = <const I extends string>(id: I, path: string, summary: string, body: z.core.$ZodType, hint: string) =>
  control(id, 'POST', path, summary, simulated, { body, extra: NOT_FOUND, hint });
/** The device of a simulation: its rule as the device registry words it. */
const DEVICE_ID = z.string({ error: 'is required (a device id)' }).check(z.meta({ description: 'The device.' }));
const RECEIPT_STATUSES = Object.keys(ACK_STATUS_CODES) as [string, ...string[]];
const PAIRING_ACTIONS = ['start', 'scan', 'cancel'] as const;
const replayed = anyObject('What was replayed.');

/** The control API, in the document's order. */
export const CONTROL_OPERATIONS = [
  control(
    'listControlEndpoints',
    'GET',
    // Documented without the trailing slash (linters flag `/__mock/` as a path unlike the others); both are served.
    '/__mock',
    'List the control endpoints (also at /__mock/)',
    object({ endpoints: list(str()) }),
  ),
  control(
    'resetMock',
    'POST',
    '/__mock/reset',
    'Put the backend back to its start seed: users, keys and records; rate windows and the gateway cleared',
    object({ reset: z.literal(true), users: seededUsers }),
    { hint: ' (back to the start seed: users, keys, records; gateway cleared)' },
  ),
  control(
    'loadFixture',
    'POST',
    '/__mock/fixture',
    'Load users, domains, pixels, QR codes and devices at once, all or nothing, with the management API’s rules',
    object({
      users: seededUsers,
      domains: created(),
      pixels: created(),
      qrs: created({ link: str('The QR image URL.') }),
      devices: list(anyObject('A device as stored.')),
    }),
    {
      status: 201,
      body: checkedElsewhere(
        z.strictObject({
          users: z.optional(list(fixtureUser)),
          domains: z.optional(list(owned('domain', 'DomainCreate'))),
          pixels: z.optional(list(owned('pixel', 'PixelCreate'))),
          qrs: z.optional(list(owned('QR code', 'QrCreate'))),
          devices: z.optional(list(DEVICE_INPUT)),
          variants: z.optional(
            list(
              str(
                'Production variants a recording was made against: accepted only when they are the running mock’s (variants are chosen at start: --variant, or --fixture <recording>).',
              ),
            ),
          ),
        }),
      ),
      hint: ' {users?, domains?, pixels?, qrs?, devices?, variants?} (all or nothing; owner: username)',
    },
  ),
  control(
    'getSnapshot',
    'GET',
    '/__mock/snapshot',
    'The whole state as one document with a format version (holds secrets: keys, webhook secrets, passwords)',
    SNAPSHOT,
    { hint: ' (the whole state, secrets included; PUT it back with PUT /__mock/snapshot)' },
  ),
  control(
    'putSnapshot',
    'PUT',
    '/__mock/snapshot',
    'Replace the whole state with a snapshot, all or nothing, checked by the rules of the routes that create its rows',
    object({ restored: z.literal(true), users: seededUsers }),
    {
      body: checkedElsewhere(SNAPSHOT),
      extra: {
        '413': {
          description:
            'The body is over 1 MB: move a larger state with `linkgate mock --state` or `backend.restore()`.',
          content: json(controlError),
        },
      },
      hint: ' {format, version, store, gateway} (from GET /__mock/snapshot; all or nothing)',
    },
  ),
  control(
    'setWebhook',
    'POST',
    '/__mock/webhooks',
    'Set the tenant’s receiver, or a device override',
    anyObject('The endpoint set.'),
    { status: 201, body: WEBHOOK_INPUT, extra: NOT_FOUND, hint: ' {tenant?, device_id?, url, secret?, events?}' },
  ),
  control(
    'listWebhooks',
    'GET',
    '/__mock/webhooks',
    'List receivers (secrets shown by prefix unless redact=0)',
    anyObject('Tenants and devices.'),
    {
      query: input({
        redact: z.optional(
          z
            .enum(['0', '1', 'true', 'false'], {
              error: 'must be 1 or true (the default: secrets shown by prefix), 0 or false (in full)',
            })
            .check(z.meta({ description: '`0` shows the secrets in full.' })),
        ),
      }),
      hint: '?redact=0 (secrets by prefix unless redact=0)',
    },
  ),
  control(
    'removeWebhook',
    'DELETE',
    '/__mock/webhooks',
    'Remove the tenant’s receiver or a device override',
    object({ removed: bool() }),
    {
      query: input({
        tenant: z._default(TENANT.check(z.meta({ description: 'The tenant whose receiver goes.' })), DEFAULT_TENANT),
        device_id: text('The device whose override goes.'),
      }),
      hint: '?tenant=|device_id=',
    },
  ),
  control('addDevice', 'POST', '/__mock/devices', 'Add a device', anyObject('The device.'), {
    status: 201,
    body: DEVICE_INPUT,
    hint: ' {tenant?, id?, name?, phone?, status?}',
  }),
  control('listDevices', 'GET', '/__mock/devices', 'List devices', object({ devices: list(anyObject('A device.')) }), {
    query: BY_TENANT,
    hint: '?tenant=',
  }),
  control(
    'createMessagingKey',
    'POST',
    '/__mock/keys',
    'Create a messaging API key (the only answer that shows it)',
    anyObject('The key.'),
    {
      status: 201,
      body: input({
        tenant: tenantField(),
        label: text(),
        key: text('`gw_live_` + 24 or more letters or digits; generated when absent.', {
          error: 'must be "gw_live_" followed by 24 or more letters or digits',
        }),
      }),
      hint: ' {tenant?, label?, key?}',
    },
  ),
  control(
    'listMessagingKeys',
    'GET',
    '/__mock/keys',
    'List messaging keys (previews only)',
    object({ keys: list(anyObject('A key slot.')) }),
    { query: BY_TENANT, hint: '?tenant=' },
  ),
  control(
    'regenerateMessagingKey',
    'POST',
    '/__mock/keys/{id}/regenerate',
    'Replace a key slot’s key',
    anyObject('The new key.'),
    { status: 201, params: KEY_SLOT, extra: NOT_FOUND },
  ),
  control(
    'revokeMessagingKey',
    'DELETE',
    '/__mock/keys/{id}',
    'Revoke a messaging key',
    anyObject('The revoked key slot.'),
    {
      params: KEY_SLOT,
      extra: NOT_FOUND,
    },
  ),
  control(
    'armFaults',
    'POST',
    '/__mock/faults',
    'Arm faults: of the next webhook deliveries (duplicate, staleTimestamp, wrongSecret), or of the management and messaging APIs (what fails, how, when), one at a time or as a plan',
    object({
      armed: int('Deliveries with faults still armed.'),
      faults: list(ARMED_FAULT, 'The API faults this request armed, with their ids.'),
    }),
    {
      body: checkedElsewhere(
        z.union([DELIVERY_FAULT, API_FAULT, FAULT_PLAN]).check(
          z.meta({
            description:
              'A delivery fault, an API fault (it has `fault`), or a plan `{seed?, faults: [...]}` of either (the `linkgate mock --faults` file), armed all or nothing.',
          }),
        ),
      ),
      extra: {
        '409': { description: `Over ${MAX_ARMED_FAULTS} API faults would be armed.`, content: json(controlError) },
      },
      hint: ' {duplicate?, staleTimestamp?, wrongSecret?, times?} | {operation?, path?, method?, apiKey?, tenant?, device?, fault, ..., times?, nth?, chance?, seed?, afterMs?, forMs?} | {seed?, faults: [...]}',
    },
  ),
  control(
    'listFaults',
    'GET',
    '/__mock/faults',
    'The armed faults, and the last calls a fault changed',
    object(
      {
        deliveries: int('Deliveries with faults still armed.'),
        faults: list(ARMED_FAULT, 'The API faults armed, in the order they were armed.'),
        fired: list(FIRED_FAULT, `The last ${FIRED_KEPT} calls a fault changed, oldest first.`),
      },
      ['deliveries', 'faults', 'fired'],
    ),
  ),
  control(
    'clearFaults',
    'DELETE',
    '/__mock/faults',
    'Disarm one API fault by id, or every fault (delivery faults too)',
    object({ cleared: bool('Whether anything was armed.') }),
    {
      query: input({ id: text('Only this API fault, e.g. f3.') }),
      extra: NOT_FOUND,
      hint: '?id=',
    },
  ),
  control(
    'advanceClock',
    'POST',
    '/__mock/clock/advance',
    'Move a manual clock (linkgate mock --clock manual)',
    object(
      {
        now: int('ms since the epoch.'),
        inFlight: list(IN_FLIGHT_ATTEMPT, 'Attempts whose receivers have not answered (each got 2 s of real time).'),
      },
      ['now', 'inFlight'],
    ),
    {
      body: input({
        ms: whole(0, 365 * 24 * 3_600_000, 'Milliseconds to move.', 'is required: a whole number of milliseconds >= 0'),
      }),
      extra: { '409': { description: 'The server runs on the real clock.', content: json(controlError) } },
      hint: ' {ms} (manual clock only)',
    },
  ),
  simulate(
    'simulateMessage',
    '/__mock/simulate/message',
    'An inbound one-to-one message (message.received)',
    input({
      device_id: DEVICE_ID,
      sender: requiredText('Phone number, digits.'),
      text: text(),
      push_name: text(),
      chat_jid: text(),
      chat_type: oneOf(
        CHAT_KINDS as readonly ChatKind[] as [ChatKind, ...ChatKind[]],
        'Non-one-to-one chats are dropped.',
      ),
      media: z.optional(
        z
          .looseObject({}, { error: 'must be an object with mime_type' })
          .check(z.meta({ description: '`{ mime_type, file_name?, file_size? }`: attached media.' })),
      ),
    }),
    ` {device_id, sender, text?, push_name?, chat_jid?, chat_type? (${CHAT_KINDS.join('|')}), media?}`,
  ),
  simulate(
    'simulateAck',
    '/__mock/simulate/ack',
    'A delivery receipt (message.ack)',
    input({
      device_id: DEVICE_ID,
      message_id: requiredText(),
      recipient: requiredText(),
      status: oneOf(RECEIPT_STATUSES, undefined, { missing: `is required: one of ${RECEIPT_STATUSES.join(', ')}` }),
    }),
    ' {device_id, message_id, recipient, status}',
  ),
  simulate(
    'simulateSent',
    '/__mock/simulate/sent',
    'A dispatch confirmation (message.sent)',
    input({ device_id: DEVICE_ID, message_id: requiredText(), recipient: requiredText(), text: text() }),
    ' {device_id, message_id, recipient, text?}',
  ),
  simulate(
    'simulateStatus',
    '/__mock/simulate/status',
    'A device status change (device.status)',
    input({
      device_id: DEVICE_ID,
      status: oneOf(DEVICE_STATUSES, undefined, { missing: `must be one of ${DEVICE_STATUSES.join(', ')}` }),
      reason: text(),
      heat_score: z.optional(whole(0, 100)),
    }),
    ' {device_id, status, reason?, heat_score?}',
  ),
  simulate(
    'simulatePairing',
    '/__mock/simulate/pairing',
    'The pairing flow: QR frames (device.qr), then a status',
    input({ device_id: DEVICE_ID, action: z._default(oneOf(PAIRING_ACTIONS, 'What the pairing does next.'), 'start') }),
    ' {device_id, action: start|scan|cancel}',
  ),
  control(
    'drainDeliveries',
    'POST',
    '/__mock/drain',
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
  control(
    'listAttempts',
    'GET',
    '/__mock/attempts',
    'Recorded delivery attempts',
    object({ attempts: list(anyObject('An attempt record.')) }),
    {
      query: input({
        delivery_id: text('Only this delivery’s.'),
        url: text('Only to this receiver.'),
        tenant: text('Only this tenant’s.'),
        redact: text('`1` hides X-Service-Secret.'),
      }),
      hint: '?delivery_id=&url=&tenant=&redact=1',
    },
  ),
  control(
    'listCircuits',
    'GET',
    '/__mock/circuits',
    'Circuit state per receiver URL',
    object({ circuits: list(anyObject('A circuit.')) }),
  ),
  control(
    'listScheduled',
    'GET',
    '/__mock/scheduled',
    'Deliveries waiting for their next attempt',
    object({ scheduled: list(anyObject('A scheduled attempt.')) }),
  ),
  control(
    'listDropped',
    'GET',
    '/__mock/dropped',
    'Events not delivered at all (group chats, no endpoint, not selected)',
    object({ dropped: list(anyObject('A dropped event.')) }),
  ),
  control(
    'listDeadLetters',
    'GET',
    '/__mock/dead-letters',
    'The dead-letter queue',
    object({ items: list(DEAD_LETTER), evicted: int() }),
    { query: BY_TENANT, hint: '?tenant=' },
  ),
  control(
    'purgeDeadLetters',
    'DELETE',
    '/__mock/dead-letters',
    'Empty the dead-letter queue',
    object({ purged: int() }),
    {
      query: input({ tenant: z.optional(TENANT.check(z.meta({ description: 'Only this tenant’s.' }))) }),
      hint: '?tenant=',
    },
  ),
  control(
    'replayDeadLetters',
    'POST',
    '/__mock/dead-letters/replay',
    'Replay every dead letter (of a tenant)',
    replayed,
    { body: input({ tenant: z.optional(TENANT) }), hint: ' {tenant?}' },
  ),
  control(
    'replayDeadLetter',
    'POST',
    '/__mock/dead-letters/{id}/replay',
    'Replay one dead letter, keeping its delivery id',
    replayed,
    { params: input({ id: requiredText('The delivery id.') }), extra: NOT_FOUND },
  ),
] as const;

/** The id of a control operation, e.g. `setWebhook`. */
export type ControlOperationId = (typeof CONTROL_OPERATIONS)[number]['id'];

/** The control operations served with the backend's stored state (the rest are the gateway's). */
export type StateOperationId = 'resetMock' | 'loadFixture' | 'getSnapshot' | 'putSnapshot';

/** The control operations served with the backend's fault book (mock/control/fault-routes.ts). */
export type FaultOperationId = 'armFaults' | 'listFaults' | 'clearFaults';

/** Stored inbound media: under `/__mock/` but without the token (receivers download it like object-storage links). */
export const STORED_MEDIA_OPERATION: OwnOperation = {
  id: 'getStoredMedia',
  method: 'GET',
  path: '/__mock/media/tmp/{id}/{file}',
  summary: 'Inbound media the gateway stored (the `media.url` of a message; 7 days; no token needed)',
  tag: 'control',
  token: false,
  status: 200,
  params: input({ id: requiredText('Storage id.'), file: requiredText('File name.') }),
  responses: {
    '200': { description: 'The file, with its content type.', content: { '*/*': { schema: str() } } },
    '404': { description: 'No such media, or it expired.', content: json(controlError) },
  },
};

/**
 * The inspector's live feed (mock/inspector/): Server-Sent Events over node:http, outside the router. The token goes in
 * the header only (never a URL, so never a request log); EventSource cannot send it, so browsers read it with fetch.
 */
export const INSPECTOR_EVENTS_OPERATION: OwnOperation = {
  id: 'followInspectorEvents',
  method: 'GET',
  path: '/__mock/events',
  summary:
    'Live feed of everything the mock holds and does (Server-Sent Events): `snapshot` first (sections clock, data, rate, webhooks, deliveries, deadLetters, devices, messages), then `attempt`, `circuit` and `dead-letter` events as they happen and each changed section whole; a reader that falls behind gets one fresh `snapshot` instead of what it missed (standalone server only)',
  tag: 'control',
  token: true,
  status: 200,
  responses: {
    '200': {
      description:
        'A `text/event-stream`: blocks of `event: <name>` and one `data: <JSON>` line. Keep-alive comments every 5 s.',
      content: { 'text/event-stream': { schema: str() } },
    },
    '401': ERRORS['401'],
  },
};

/** The inspector page (standalone server only): HTML with no data in it; it reads the token from its URL fragment. */
export const INSPECTOR_PAGE_OPERATION: OwnOperation = {
  id: 'getInspectorPage',
  method: 'GET',
  path: '/',
  summary: 'The inspector page: open `/#token=<control token>` (the fragment never reaches the server)',
  tag: 'control',
  token: false,
  status: 200,
  responses: {
    '200': { description: 'The page.', content: { 'text/html': { schema: str() } } },
    '404': {
      description:
        'Not served here: the in-process backend and msw handlers have no inspector page, only `linkgate mock` and `startMockServer` do.',
      content: json(component('ErrorEnvelope')),
    },
  },
};

/** The lines of the control API's index (`GET /__mock/`): each endpoint with its query or body fields. */
export function controlIndex(): string[] {
  return [
    ...[...CONTROL_OPERATIONS, INSPECTOR_EVENTS_OPERATION]
      .filter((op) => op.id !== 'listControlEndpoints')
      .map((op) => `${op.method} ${ownRoutePath(op)}${(op as OwnOperation).hint ?? ''}`),
    `events: ${EVENT_NAMES.join(', ')}`,
  ];
}
