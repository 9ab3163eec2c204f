import type { Clock } from '../../src/shared/clock.js';
import { secretsEqual } from '../../src/shared/constant-time.js';
import type { Gateway } from '../gateway/gateway.js';
import { json } from '../http/responses.js';
import type { Route, RouteGroup } from '../http/router.js';
import { MEDIA_ROUTE_PREFIX } from '../messaging/media-store.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import type { ManualClock } from '../shared/manual-clock.js';
import { type ControlHandler, controlRoute } from './control-answer.js';
import {
  CONTROL_OPERATIONS,
  type ControlOperationId,
  controlIndex,
  type FaultOperationId,
  type StateOperationId,
} from './control-operations.js';
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
 * constant time; never mistaken for the documented API (it has its own prefix and error shape).
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
    routes: controlRoutes(gatewayHandlers(gateway)),
  };
}

/** One handler per control operation of `handlers`, keyed by the operation's id. */
export type ControlHandlers<Id extends ControlOperationId> = Record<Id, ControlHandler>;

/** The routes of the control operations `handlers` serves, in the table's order (method, path, status from each row). */
export function controlRoutes(handlers: Partial<Record<ControlOperationId, ControlHandler>>): Route<unknown>[] {
  return CONTROL_OPERATIONS.flatMap((op) => {
    const handler = handlers[op.id];
    if (!handler) return [];
    const route = controlRoute(op, handler);
    // The index answers with a trailing slash too.
    return op.id === 'listControlEndpoints' ? [route, controlRoute(op, handler, '/__mock/')] : [route];
  });
}

/**
 * The gateway's control handlers: every control operation but the stored state's (mock/control/state-routes.ts) and
 * the faults' (mock/control/fault-routes.ts).
 */
function gatewayHandlers(
  gateway: Gateway,
): ControlHandlers<Exclude<ControlOperationId, StateOperationId | FaultOperationId>> {
  return { ...configHandlers(gateway), ...simulationHandlers(gateway), ...inspectionHandlers(gateway) };
}

function configHandlers(gateway: Gateway) {
  const endpoints = controlIndex();
  return {
    listControlEndpoints: () => ({ endpoints }),
    setWebhook: (body) => {
      const tenant = body.tenant as string;
      const deviceId = body.device_id as string | undefined;
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
    listWebhooks: (_b, { query }) => webhookList(gateway, query.redact !== '0' && query.redact !== 'false'),
    removeWebhook: (_body, { query }) => {
      if (query.device_id !== undefined) return { removed: gateway.routing.removeDevice(query.device_id as string) };
      return { removed: gateway.routing.removeTenant(query.tenant as string) };
    },
    addDevice: (body) => gateway.devices.add(body),
    listDevices: (_b, { query }) => ({ devices: gateway.devices.list(query.tenant as string | undefined) }),
    createMessagingKey: (body) => gateway.keys.create(body),
    listMessagingKeys: (_b, { query }) => ({ keys: gateway.keys.list(query.tenant as string | undefined) }),
    regenerateMessagingKey: (_b, { params }) => gateway.keys.regenerate(params.id!),
    revokeMessagingKey: (_b, { params }) => gateway.keys.revoke(params.id!),
    advanceClock: async (body) => {
      const clock: Clock = gateway.clock;
      if (typeof (clock as Partial<ManualClock>).advance !== 'function') {
        throw new GatewayInputError(
          'clock',
          'is the real clock; start the server with `linkgate mock --clock manual` (in-process: pass `clock: new ManualClock()`) to advance time',
          409,
        );
      }
      const ms = body.ms as number;
      // Steps timer by timer, giving attempts in flight a moment to be answered; a hanging one times out on the way.
      const inFlight = await gateway.advance(ms);
      return { now: clock.now(), inFlight };
    },
  } satisfies Partial<ControlHandlers<ControlOperationId>>;
}

function simulationHandlers(gateway: Gateway) {
  return {
    simulateMessage: (body, { req }) => {
      gateway.publicOrigin = req.origin;
      return gateway.simulate.message(body as never);
    },
    simulateAck: (body) => gateway.simulate.ack(body as never),
    simulateSent: (body) => gateway.simulate.sent(body as never),
    simulateStatus: (body) => gateway.simulate.status(body as never),
    simulatePairing: (body) => {
      const input = body as { device_id: string };
      return gateway.simulate.pairing[body.action as 'start' | 'scan' | 'cancel'](input);
    },
    drainDeliveries: async () => drainAnswer(gateway),
  } satisfies Partial<ControlHandlers<ControlOperationId>>;
}

function inspectionHandlers(gateway: Gateway) {
  return {
    listAttempts: (_b, { query }) => ({
      attempts: gateway.attempts({
        deliveryId: query.delivery_id as string | undefined,
        url: query.url as string | undefined,
        tenant: query.tenant as string | undefined,
        redact: query.redact === '1' || query.redact === 'true',
      }),
    }),
    listCircuits: () => ({ circuits: gateway.circuits() }),
    listScheduled: () => ({ scheduled: gateway.scheduled() }),
    listDropped: () => ({ dropped: gateway.dropped() }),
    listDeadLetters: (_b, { query }) => {
      const tenant = query.tenant as string | undefined;
      return { items: gateway.deadLetters.list(tenant), evicted: gateway.deadLetters.evicted(tenant) };
    },
    replayDeadLetters: (body) => gateway.replayAll(body.tenant as string | undefined),
    replayDeadLetter: (_b, { params }) => gateway.replay(params.id!),
    purgeDeadLetters: (_b, { query }) => ({ purged: gateway.deadLetters.purge(query.tenant as string | undefined) }),
  } satisfies Partial<ControlHandlers<ControlOperationId>>;
}
