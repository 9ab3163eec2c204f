// The OpenAPI description of the mock's own endpoints: the `/__mock/` control API (so a Python or Go suite can generate
// its client), the QR images, stored media and the document itself. Each is one row (mock/http/own-operation.ts) that
// its route reads too: the control API's in mock/control/control-operations.ts, the QR images' beside their route in
// mock/management/qr-image-route.ts, the document's own here.
// Runtime-neutral, like openapi-document.ts.
import {
  CONTROL_OPERATIONS,
  INSPECTOR_EVENTS_OPERATION,
  INSPECTOR_PAGE_OPERATION,
  STORED_MEDIA_OPERATION,
} from '../control/control-operations.js';
import { inputJsonSchema } from '../http/own-input.js';
import {
  anyObject,
  component,
  type Json,
  json,
  type OwnOperation,
  object,
  openApiOperation,
  str,
} from '../http/own-operation.js';
import { QR_IMAGE_OPERATION } from '../management/qr-image-route.js';

/** This document (served by openapi-document.ts). */
export const OPENAPI_OPERATION: OwnOperation = {
  id: 'getOpenApiDocument',
  method: 'GET',
  path: '/openapi.json',
  summary: 'This document, with `servers` set to the address asked',
  tag: 'control',
  token: false,
  status: 200,
  responses: {
    '200': { description: 'The OpenAPI document.', content: json(anyObject('The OpenAPI document.')) },
    // The one failure a GET here can meet: the standalone server refuses any request body over 1 MB unread.
    '413': {
      description: 'A request body over 1 MB (this GET takes none).',
      content: json(component('ErrorEnvelope')),
    },
  },
};

/** The paths of the mock's own endpoints: the control API, QR images, stored media, `/openapi.json`. */
export function mockOwnPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {};
  const inspector = [INSPECTOR_EVENTS_OPERATION, INSPECTOR_PAGE_OPERATION];
  for (const op of [
    ...CONTROL_OPERATIONS,
    QR_IMAGE_OPERATION,
    STORED_MEDIA_OPERATION,
    OPENAPI_OPERATION,
    ...inspector,
  ]) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = openApiOperation(op);
  }
  return paths;
}

/** Schemas the control API's description refers to. */
export const CONTROL_SCHEMAS: Record<string, Json> = {
  ControlError: inputJsonSchema(
    object(
      {
        error: str('`invalid_request`, `unauthorized`, `not_found`, `conflict`.'),
        message: str(),
        field: str('The offending field, e.g. `domains[1].domain`.'),
        rule: str('What it must be.'),
      },
      ['error', 'message'],
      'A control API failure.',
    ),
    'output',
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
