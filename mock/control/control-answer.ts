import { parseOwnInput } from '../http/own-input.js';
import { type OwnOperation, ownRoutePath } from '../http/own-operation.js';
import { json } from '../http/responses.js';
import type { Route, RouteCall } from '../http/router.js';
import type { MockRequest, MockResponse } from '../http/types.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** What a control endpoint is called with besides its body: the request, and its path and query as its row parsed them. */
export interface ControlCall extends RouteCall<unknown> {
  /** The path parameters, parsed by the row's `params`. */
  params: Record<string, string>;
  /** The query, parsed by the row's `query` (`{}` when the row declares none). */
  query: Record<string, unknown>;
}

/**
 * A control endpoint: gets the JSON body (`{}` when none) as its row's `body` parsed it, and returns what to answer
 * with as JSON.
 */
export type ControlHandler = (body: Record<string, unknown>, call: ControlCall) => unknown;

/**
 * Builds the route of a control operation (method, path, status and the body's rules from its row): JSON in, JSON
 * out, bad input -> 400/404/409 `{ error, field, rule, message }`.
 */
export function controlRoute(
  op: Pick<OwnOperation, 'method' | 'path' | 'status' | 'body' | 'params' | 'query'>,
  handler: ControlHandler,
  path = ownRoutePath(op),
): Route<unknown> {
  const { status } = op;
  return {
    method: op.method,
    path,
    async handle(call) {
      try {
        const raw = readBody(call.req);
        const body = op.body ? parseOwnInput(op.body, raw) : raw;
        const params = (op.params ? parseOwnInput(op.params, call.params) : call.params) as Record<string, string>;
        const query = op.query ? parseOwnInput(op.query, Object.fromEntries(call.req.query)) : {};
        const result = await handler(body, { ...call, params, query });
        return json(status, result ?? { ok: true });
      } catch (error) {
        if (error instanceof GatewayInputError) return inputError(error);
        throw error;
      }
    },
  };
}

/** The control API's answer to bad input. */
export function inputError(error: GatewayInputError): MockResponse {
  const code = error.status === 404 ? 'not_found' : error.status === 409 ? 'conflict' : 'invalid_request';
  return json(error.status, { error: code, field: error.field, rule: error.rule, message: error.message });
}

function readBody(req: MockRequest): Record<string, unknown> {
  if (req.body === undefined || req.body.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body);
  } catch {
    throw new GatewayInputError('body', 'must be valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new GatewayInputError('body', 'must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
