/**
 * `linkgate/webhooks`: verify, parse and route the gateway's webhook deliveries on any runtime with `fetch`.
 * Imports nothing at run time but `zod` (classic, for parse speed) and no `node:*`.
 *
 * {@link createWebhookHandler} answers a Web `Request` (Next.js, Hono, Deno, Bun, workers) and {@link toNodeHandler}
 * adapts it to `node:http` / Express. Underneath, {@link verifyWebhook} checks the signature headers in constant time
 * against one secret or several (rotation, per-device secrets) and {@link parseWebhookEvent} reads the payload into a
 * typed event. {@link createTestDelivery} signs deliveries for your own tests.
 *
 * @example
 * import { createWebhookHandler } from 'linkgate/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { 'message.received': (event) => console.log(event.data.text) },
 * });
 *
 * @packageDocumentation
 * @module linkgate/webhooks
 */

export * from '../schemas/events.js';
export { constantTimeEqual } from './constant-time.js';
export { type DedupeStore, MemoryDedupeStore, type MemoryDedupeStoreOptions } from './dedupe.js';
export {
  DEFAULT_HEADER_PREFIX,
  type DeliveryHeaderInput,
  deliveryHeaders,
  WEBHOOK_USER_AGENT,
} from './delivery-headers.js';
export {
  createWebhookHandler,
  type DeliveryContext,
  type EventHandler,
  type HandlerFailureContext,
  type WebhookHandlerOptions,
  type WebhookHandlers,
  type WebhookRequestHandler,
} from './handler.js';
export type { HeaderSource, NodeHeaders } from './header-reader.js';
export { ACCEPTED_MEDIA_TYPES, isMediaAcceptable, MAX_MEDIA_BYTES, type MediaVerdict } from './media.js';
export {
  type NodeHandlerOptions,
  type NodeResponseLike,
  type NodeWebhookHandler,
  toNodeHandler,
} from './node-handler.js';
export type { NodeRequestLike } from './node-request.js';
export {
  isKnownEventName,
  type KnownWebhookEvent,
  type ParsedWebhookEvent,
  parseWebhookEvent,
  type UnknownWebhookEvent,
} from './parse.js';
export { decodeQrImage } from './qr-image.js';
export { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, type RawBody } from './raw-body.js';
export type { SecretList, TenantAndDeviceSecrets, WebhookSecretOption } from './secrets.js';
export {
  createTestDelivery,
  type NamedTestEvent,
  type TestDelivery,
  type TestDeliveryCommon,
  type TestDeliveryOptions,
  type TestEventObject,
} from './test-delivery.js';
export {
  createWebhookVerifier,
  type VerifiedDelivery,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookDelivery,
  verifyWebhookSync,
  type WebhookDeliveryInput,
  type WebhookVerifier,
} from './verify.js';
export {
  WEBHOOK_ERROR_STATUS,
  type WebhookErrorCode,
  type WebhookErrorDetails,
  type WebhookPayloadIssue,
  WebhookVerificationError,
} from './webhook-errors.js';
