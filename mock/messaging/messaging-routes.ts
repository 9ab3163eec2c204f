import * as z from 'zod/mini';
import { INVALID_API_KEY_BODY } from '../../src/schemas/messaging.js';
import { MESSAGING_OPERATIONS } from '../../src/schemas/messaging-operations.js';
import { operation } from '../../src/schemas/operation.js';
import { type Handlers, operationRoute } from '../http/operation-route.js';
import { json } from '../http/responses.js';
import type { RouteGroup } from '../http/router.js';
import type { MockRequest, MockResponse } from '../http/types.js';
import type { DeviceRegistry } from './device-registry.js';
import type { MessagingKeyInfo, MessagingKeyring } from './messaging-keyring.js';
import { SendRejection, type SentMessage } from './sent-message.js';

const UNAUTHORIZED: MockResponse = json(401, INVALID_API_KEY_BODY);

/**
 * `GET /api/v1/wa/devices`: the reference mock's list of a workspace's devices. The spec does not show it and the
 * SDK does not call it, so it is declared here, beside its handler, rather than in the SDK's table.
 */
export const listMessagingDevices = operation({
  id: 'devices.list',
  method: 'GET',
  path: '/api/v1/wa/devices',
  tag: 'messaging',
  response: z.looseObject({
    success: z.literal(true),
    data: z.array(
      z.looseObject({
        device_id: z.string(),
        name: z.optional(z.string()),
        phone: z.optional(z.string()),
        status: z.string(),
      }),
    ),
  }),
  select: (answer) => answer.data,
});

/** Every operation the mock's messaging API serves: the SDK's table and the mock's own device list. */
export const MOCK_MESSAGING_OPERATIONS = [...MESSAGING_OPERATIONS, listMessagingDevices] as const;

/** The id of an operation the mock's messaging API serves. */
export type MessagingOperationId = (typeof MOCK_MESSAGING_OPERATIONS)[number]['id'];

/**
 * What the messaging API's routes use of the gateway: its keys, its devices and the send. Narrow, so messaging/ never
 * imports the facade that wires the simulators (mock/gateway/gateway.ts).
 */
export interface MessagingHost {
  /** Messaging API keys, to authenticate callers. */
  readonly keys: Pick<MessagingKeyring, 'authenticate'>;
  /** Devices per tenant, for the device list. */
  readonly devices: Pick<DeviceRegistry, 'list'>;
  /** Outbound messages: queues one, or throws a {@link SendRejection}. */
  readonly messages: { send(tenant: string, body: unknown): SentMessage };
}

/** Whether a path belongs to the messaging API (`/api/v1/...`). */
export function isMessagingPath(path: string): boolean {
  return path.startsWith('/api/v1/') || path === '/api/v1';
}

/**
 * The messaging API (`/api/v1/...`): messaging keys (spec: HTTP 401 with exactly `INVALID_API_KEY_BODY` for a
 * missing, unknown or revoked key), `POST /api/v1/wa/messages/send` and `GET /api/v1/wa/devices`. Errors use the
 * spec's body shape `{ success: false, message, error }`. No rate limit (the service's documentation does not give one).
 */
export function messagingGroup(gateway: MessagingHost): RouteGroup<MessagingKeyInfo> {
  const handlers: Handlers<MessagingOperationId, MessagingKeyInfo> = {
    'messages.send'({ req, context }) {
      const body = readJson(req);
      if (body instanceof Error) return failure(400, 'VALIDATION_ERROR', body.message, 'body');
      try {
        const sent = gateway.messages.send(context.tenant, body);
        return json(200, { success: true, message: 'Message queued.', data: sent });
      } catch (error) {
        if (!(error instanceof SendRejection)) throw error;
        return failure(error.status, error.code, error.message, error.field);
      }
    },
    'devices.list'({ context }) {
      const devices = gateway.devices
        .list(context.tenant)
        .map(({ id, name, phone, status }) => ({ device_id: id, name, phone, status }));
      return json(200, { success: true, data: devices });
    },
  };
  return {
    name: 'messaging',
    owns: isMessagingPath,
    guard(req) {
      const key = gateway.keys.authenticate(req.headers.authorization);
      // `headers` (even empty) makes the router answer the 401 for unknown /api/v1 paths too, not a 404 that
      // would tell a caller without a key which paths exist.
      return key ? { ok: true, context: key } : { ok: false, response: UNAUTHORIZED, headers: {} };
    },
    notFound: (req) => failure(404, 'NOT_FOUND', `Endpoint not found: ${req.method} ${req.path}`),
    routes: MOCK_MESSAGING_OPERATIONS.map((op) => operationRoute(op, handlers[op.id])),
  };
}

function failure(status: number, error: string, message: string, field?: string): MockResponse {
  return json(status, { success: false, message, error, ...(field && { field }) });
}

function readJson(req: MockRequest): unknown {
  if (!req.body) return new Error('body is required: a JSON object with device_id, phone and message');
  try {
    return JSON.parse(req.body);
  } catch {
    return new Error('body must be valid JSON (send Content-Type: application/json)');
  }
}
