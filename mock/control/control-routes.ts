import type { Clock } from '../../src/core/clock.js';
import { EVENT_NAMES } from '../../src/schemas/events.js';
import { secretsEqual } from '../../src/webhooks/constant-time.js';
import type { Faults } from '../gateway/fault-injector.js';
import { GatewayInputError } from '../gateway/gateway-input-error.js';
import { json } from '../http/responses.js';
import type { Route, RouteGroup } from '../http/router.js';
import { CHAT_KINDS } from '../messaging/chat-kind.js';
import type { Gateway } from '../messaging/gateway.js';
import { MEDIA_ROUTE_PREFIX } from '../messaging/media-store.js';
import { checkTenant } from '../messaging/messaging-keyring.js';
import type { ManualClock } from '../shared/manual-clock.js';
import { intField, stringField } from '../simulators/simulation-input.js';
import { controlRoute, queryFlag } from './control-answer.js';
import { drainAnswer, webhookList } from './gateway-answers.js';

/** Where the control API lives; it answers nothing outside this prefix. */
export const CONTROL_PREFIX = '/__mock/';

const UNAUTHORIZED = json(401, {
  error: 'unauthorized',
  message:
    'The /__mock/ control API needs "Authorization: Bearer <control token>": the token is printed when the mock server starts (set it with --control-token) and is backend.gateway.controlToken in-process.',
});

/**
 * The `/__mock/` control API of the gateway: configure webhooks, devices and keys, simulate events, inspect attempts,
 * circuits and dead letters, inject faults and move a manual clock. Protected by its own token, compared in
 * constant time; never mistaken for the spec's API (it has its own prefix and error shape).
 */
export function controlGroup(gateway: Gateway): RouteGroup<unknown> {
  const bearer = `Bearer ${gateway.controlToken}`;
  return {
    name: 'control',
    owns: (path) => path.startsWith(CONTROL_PREFIX) && !path.startsWith(MEDIA_ROUTE_PREFIX),
    guard(req) {
      const given = req.headers.authorization ?? '';
      // `headers` (even empty) makes the router answer 401, not 404, for unknown /__mock/ paths without the token.
      return secretsEqual(given, bearer)
        ? { ok: true, context: undefined }
        : { ok: false, response: UNAUTHORIZED, headers: {} };
    },
    notFound: (req) =>
      json(404, { error: 'not_found', message: `No control endpoint ${req.method} ${req.path}; see GET /__mock/` }),
    routes: [...configRoutes(gateway), ...simulationRoutes(gateway), ...inspectionRoutes(gateway)],
  };
}

function configRoutes(gateway: Gateway): Route<unknown>[] {
  return [
    controlRoute('GET', '/__mock', () => ({ endpoints: ENDPOINTS })),
    controlRoute('GET', '/__mock/', () => ({ endpoints: ENDPOINTS })),
    controlRoute(
      'POST',
      '/__mock/webhooks',
      (body) => {
        const tenant = checkTenant(body.tenant);
        const deviceId = stringField(body, 'device_id');
        const input = {
          url: body.url as string,
          secret: body.secret as string | undefined,
          events: body.events as string[] | undefined,
        };
        if (deviceId !== undefined) {
          const device = gateway.devices.require(deviceId);
          return { device_id: device.id, ...gateway.routing.setDevice(device.id, input) };
        }
        return { tenant, ...gateway.routing.setTenant(tenant, input) };
      },
      201,
    ),
    controlRoute('GET', '/__mock/webhooks', (_b, { req }) => webhookList(gateway, req.query.get('redact'))),
    controlRoute('DELETE', '/__mock/webhooks', (_body, { req }) => {
      const deviceId = req.query.get('device_id');
      if (deviceId !== null) return { removed: gateway.routing.removeDevice(deviceId) };
      return { removed: gateway.routing.removeTenant(checkTenant(req.query.get('tenant') ?? undefined)) };
    }),
    controlRoute('POST', '/__mock/devices', (body) => gateway.devices.add(body), 201),
    controlRoute('GET', '/__mock/devices', (_b, { req }) => ({
      devices: gateway.devices.list(req.query.get('tenant') ?? undefined),
    })),
    controlRoute('POST', '/__mock/keys', (body) => gateway.keys.create(body), 201),
    controlRoute('GET', '/__mock/keys', (_b, { req }) => ({
      keys: gateway.keys.list(req.query.get('tenant') ?? undefined),
    })),
    controlRoute('POST', '/__mock/keys/:id/regenerate', (_b, { params }) => gateway.keys.regenerate(params.id!), 201),
    controlRoute('DELETE', '/__mock/keys/:id', (_b, { params }) => gateway.keys.revoke(params.id!)),
    controlRoute('POST', '/__mock/faults', (body) => {
      const faults: Faults = {};
      for (const name of ['duplicate', 'wrongSecret'] as const) {
        if (body[name] !== undefined && typeof body[name] !== 'boolean')
          throw new GatewayInputError(name, 'must be a boolean');
        if (body[name]) faults[name] = true;
      }
      const stale = body.staleTimestamp;
      if (stale !== undefined && typeof stale !== 'boolean' && !(Number.isInteger(stale) && (stale as number) > 0)) {
        throw new GatewayInputError('staleTimestamp', 'must be a boolean or a positive whole number of seconds');
      }
      if (stale) faults.staleTimestamp = stale as boolean | number;
      const times = intField(body, 'times', 1, 1000) ?? 1;
      gateway.faults.next(faults, times);
      return { armed: gateway.faults.armed };
    }),
    controlRoute('POST', '/__mock/clock/advance', async (body) => {
      const clock: Clock = gateway.clock;
      if (typeof (clock as Partial<ManualClock>).advance !== 'function') {
        throw new GatewayInputError(
          'clock',
          'is the real clock; start the server with `linkgate mock --clock manual` (in-process: pass `clock: new ManualClock()`) to advance time',
          409,
        );
      }
      const ms = intField(body, 'ms', 0, 365 * 24 * 3_600_000);
      if (ms === undefined) throw new GatewayInputError('ms', 'is required: a whole number of milliseconds >= 0');
      // Steps timer by timer, giving attempts in flight a moment to be answered; a hanging one times out on the way.
      const inFlight = await gateway.engine.advance(ms);
      return { now: clock.now(), inFlight };
    }),
  ];
}

function simulationRoutes(gateway: Gateway): Route<unknown>[] {
  const origin = (req: { origin: string }) => {
    gateway.publicOrigin = req.origin;
  };
  return [
    controlRoute('POST', '/__mock/simulate/message', (body, { req }) => {
      origin(req);
      return gateway.simulate.message(body as never);
    }),
    controlRoute('POST', '/__mock/simulate/ack', (body) => gateway.simulate.ack(body as never)),
    controlRoute('POST', '/__mock/simulate/sent', (body) => gateway.simulate.sent(body as never)),
    controlRoute('POST', '/__mock/simulate/status', (body) => gateway.simulate.status(body as never)),
    controlRoute('POST', '/__mock/simulate/pairing', (body) => {
      const action = body.action ?? 'start';
      const input = body as { device_id: string };
      if (action === 'start') return gateway.simulate.pairing.start(input);
      if (action === 'scan') return gateway.simulate.pairing.scan(input);
      if (action === 'cancel') return gateway.simulate.pairing.cancel(input);
      throw new GatewayInputError('action', 'must be one of start, scan, cancel');
    }),
    controlRoute('POST', '/__mock/drain', async () => drainAnswer(gateway)),
  ];
}

function inspectionRoutes(gateway: Gateway): Route<unknown>[] {
  return [
    controlRoute('GET', '/__mock/attempts', (_b, { req }) => ({
      attempts: gateway.attempts({
        deliveryId: req.query.get('delivery_id') ?? undefined,
        url: req.query.get('url') ?? undefined,
        tenant: req.query.get('tenant') ?? undefined,
        redact: queryFlag(req, 'redact'),
      }),
    })),
    controlRoute('GET', '/__mock/circuits', () => ({ circuits: gateway.circuits() })),
    controlRoute('GET', '/__mock/scheduled', () => ({ scheduled: gateway.engine.scheduled() })),
    controlRoute('GET', '/__mock/dropped', () => ({ dropped: gateway.engine.dropped() })),
    controlRoute('GET', '/__mock/dead-letters', (_b, { req }) => {
      const tenant = req.query.get('tenant') ?? undefined;
      return { items: gateway.deadLetters.list(tenant), evicted: gateway.deadLetters.evicted(tenant) };
    }),
    controlRoute('POST', '/__mock/dead-letters/replay', (body) => {
      const tenant = body.tenant === undefined ? undefined : checkTenant(body.tenant);
      return gateway.engine.replayAll(tenant);
    }),
    controlRoute('POST', '/__mock/dead-letters/:id/replay', (_b, { params }) => gateway.engine.replay(params.id!)),
    controlRoute('DELETE', '/__mock/dead-letters', (_b, { req }) => {
      const t = req.query.get('tenant');
      return { purged: gateway.deadLetters.purge(t === null ? undefined : checkTenant(t)) };
    }),
  ];
}

/** The index answered at `GET /__mock/`. */
const ENDPOINTS = [
  'POST /__mock/webhooks {tenant?, device_id?, url, secret?, events?}',
  'GET /__mock/webhooks?redact=0 (secrets by prefix unless redact=0)',
  'DELETE /__mock/webhooks?tenant=|device_id=',
  'POST /__mock/devices {tenant?, id?, name?, phone?, status?}',
  'GET /__mock/devices?tenant=',
  'POST /__mock/keys {tenant?, label?, key?}',
  'GET /__mock/keys?tenant=',
  'POST /__mock/keys/:id/regenerate',
  'DELETE /__mock/keys/:id',
  `POST /__mock/simulate/message {device_id, sender, text?, push_name?, chat_jid?, chat_type? (${CHAT_KINDS.join('|')}), media?}`,
  'POST /__mock/simulate/ack {device_id, message_id, recipient, status}',
  'POST /__mock/simulate/sent {device_id, message_id, recipient, text?}',
  'POST /__mock/simulate/status {device_id, status, reason?, heat_score?}',
  'POST /__mock/simulate/pairing {device_id, action: start|scan|cancel}',
  'POST /__mock/faults {duplicate?, staleTimestamp?, wrongSecret?, times?}',
  'POST /__mock/reset (back to the start seed: users, keys, records; gateway cleared)',
  'POST /__mock/fixture {users?, domains?, pixels?, qrs?, devices?} (all or nothing; owner: username)',
  'POST /__mock/clock/advance {ms} (manual clock only)',
  'POST /__mock/drain',
  'GET /__mock/attempts?delivery_id=&url=&tenant=&redact=1',
  'GET /__mock/circuits',
  'GET /__mock/scheduled',
  'GET /__mock/dropped',
  'GET /__mock/dead-letters?tenant=',
  'POST /__mock/dead-letters/:id/replay',
  'POST /__mock/dead-letters/replay {tenant?}',
  'DELETE /__mock/dead-letters?tenant=',
  `events: ${EVENT_NAMES.join(', ')}`,
];
