// The document's own words for each operation of the tables (src/schemas/operations.ts and the messaging ones): its
// operationId and summary. Keyed by operation id and typed over the tables, so an operation without words, or words
// for an operation that is gone, fails to compile. Kept here, out of the SDK's bundle.
import type { ManagementOperationId } from '../../src/schemas/operations.js';
import type { MessagingOperationId } from '../messaging/messaging-routes.js';

/** What the document says of one operation beyond its declaration. */
export interface OperationWords {
  /** The method name a generated client (Python, Go, ...) gets. */
  operationId: string;
  /** One line: what the call does. */
  summary: string;
  /** More, where one line is not enough. */
  description?: string;
}

/** The words of every management and messaging operation, by operation id. */
export const OPERATION_WORDS: Readonly<Record<ManagementOperationId | MessagingOperationId, OperationWords>> = {
  'account.get': { operationId: 'getAccount', summary: 'Read the caller’s account' },
  'account.update': { operationId: 'updateAccount', summary: 'Change the caller’s email or password' },
  'domains.list': { operationId: 'listDomains', summary: 'List branded domains' },
  'domains.create': { operationId: 'createDomain', summary: 'Add a branded domain' },
  'domains.update': { operationId: 'updateDomain', summary: 'Change a domain’s redirects' },
  'domains.delete': { operationId: 'deleteDomain', summary: 'Delete a branded domain' },
  'splash.list': { operationId: 'listSplashPages', summary: 'List custom splash pages' },
  'overlays.list': { operationId: 'listOverlays', summary: 'List call-to-action overlays' },
  'pixels.list': { operationId: 'listPixels', summary: 'List tracking pixels' },
  'pixels.create': { operationId: 'createPixel', summary: 'Add a tracking pixel' },
  'pixels.update': { operationId: 'updatePixel', summary: 'Change a pixel' },
  'pixels.delete': { operationId: 'deletePixel', summary: 'Delete a pixel' },
  'qr.list': { operationId: 'listQrCodes', summary: 'List QR codes' },
  'qr.get': { operationId: 'getQrCode', summary: 'Read a QR code and its statistics' },
  'qr.create': { operationId: 'createQrCode', summary: 'Create a QR code' },
  'qr.update': { operationId: 'updateQrCode', summary: 'Change a QR code' },
  'qr.delete': { operationId: 'deleteQrCode', summary: 'Delete a QR code' },
  'plans.list': { operationId: 'listPlans', summary: 'List plans (admin)' },
  'plans.subscribe': { operationId: 'subscribeUserToPlan', summary: 'Subscribe a user to a plan (admin)' },
  'users.list': { operationId: 'listUsers', summary: 'List users (admin)' },
  'users.get': { operationId: 'getUser', summary: 'Read a user (admin)' },
  'users.create': { operationId: 'createUser', summary: 'Register a user (admin)' },
  'users.delete': { operationId: 'deleteUser', summary: 'Delete a user (admin)' },
  'messages.send': {
    operationId: 'sendMessage',
    summary: 'Send a one-to-one message through a connected device',
    description: "`device_id` may be `auto`: the first ONLINE device of the key's workspace.",
  },
  'devices.list': {
    operationId: 'listMessagingDevices',
    summary: "List the workspace's devices (reference mock; the service's documentation does not show this endpoint)",
  },
};

/** Descriptions of query parameters, by name (their schema comes from the operation's query schema). */
export const QUERY_WORDS: Readonly<Record<string, string>> = {
  limit: 'Records per page (default 15).',
  page: 'Page number, 1-based (default 1).',
};

/** The operationId of the webhook a gateway delivers for `event`: `message.received` -> `deliverMessageReceived`. */
export function webhookOperationId(event: string): string {
  return `deliver${event
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
}
