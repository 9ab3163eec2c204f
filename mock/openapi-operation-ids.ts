// The operationId of each management and messaging operation: the method names a generated client gets (Python,
// Go, ...). The control API declares its own ids where it is described (mock/openapi-control.ts).

/** `<method> <path template>` to operationId. */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'get /api/account': 'getAccount',
  'put /api/account/update': 'updateAccount',
  'get /api/domains': 'listDomains',
  'post /api/domain/add': 'createDomain',
  'put /api/domain/{id}/update': 'updateDomain',
  'delete /api/domain/{id}/delete': 'deleteDomain',
  'get /api/splash': 'listSplashPages',
  'get /api/overlay': 'listOverlays',
  'get /api/pixels': 'listPixels',
  'post /api/pixel/add': 'createPixel',
  'put /api/pixel/{id}/update': 'updatePixel',
  'delete /api/pixel/{id}/delete': 'deletePixel',
  'get /api/qr': 'listQrCodes',
  'get /api/qr/{id}': 'getQrCode',
  'post /api/qr/add': 'createQrCode',
  'put /api/qr/{id}/update': 'updateQrCode',
  'delete /api/qr/{id}/delete': 'deleteQrCode',
  'get /api/plans': 'listPlans',
  'put /api/plan/{planid}/user/{userid}': 'subscribeUserToPlan',
  'get /api/users': 'listUsers',
  'get /api/user/{id}': 'getUser',
  'post /api/user/add': 'createUser',
  'delete /api/user/{id}/delete': 'deleteUser',
  'post /api/v1/wa/messages/send': 'sendMessage',
  'get /api/v1/wa/devices': 'listMessagingDevices',
};

type Operations = Record<string, Record<string, unknown>>;

/**
 * Gives each operation of `paths` its id from {@link OPERATION_IDS} (an operation that declares its own keeps it).
 * An operation with neither is a mistake caught here, at build time, so a new route cannot ship without one.
 */
export function withOperationIds(paths: Record<string, Record<string, unknown>>): Record<string, Operations> {
  const out: Record<string, Operations> = {};
  for (const [path, item] of Object.entries(paths as Record<string, Operations>)) {
    out[path] = {};
    for (const [method, operation] of Object.entries(item)) {
      const operationId = operation.operationId ?? OPERATION_IDS[`${method} ${path}`];
      if (typeof operationId !== 'string') {
        throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no operationId; add one to OPERATION_IDS.`);
      }
      out[path][method] = { operationId, ...operation };
    }
  }
  return out;
}

/** The operationId of the webhook a gateway delivers for `event`: `message.received` -> `deliverMessageReceived`. */
export function webhookOperationId(event: string): string {
  return `deliver${event
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
}
