/**
 * `linkgate/webhooks`: verify, parse and route the gateway's webhook deliveries on any runtime with `fetch`.
 * Imports nothing at run time but zod/mini (no `node:*`) and runs nothing at import: payloads are parsed with the
 * event schemas (zod/mini), their issues worded in zod's English; under Node the same schemas run compiled by zod.
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

export type {
  DeviceQrEvent,
  DeviceStatusEvent,
  EventEnvelope,
  EventMap,
  EventName,
  Media,
  MessageAckEvent,
  MessageReceivedEvent,
  MessageSentEvent,
  WebhookEvent,
} from '../schemas/events.js';
export { EVENT_NAMES } from '../shared/event-names.js';
export { type DedupeStore, MemoryDedupeStore } from './dedupe.js';
export {
  createWebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHandlers,
  type WebhookRequestHandler,
} from './handler.js';
export { isMediaAcceptable } from './media.js';
export { type NodeHandlerOptions, type NodeWebhookHandler, toNodeHandler } from './node-handler.js';
export { type ParsedWebhookEvent, parseWebhookEvent } from './parse.js';
export { decodeQrImage } from './qr-image.js';
export type { WebhookSecretOption } from './secrets.js';
export { createTestDelivery, type TestDelivery, type TestDeliveryOptions } from './test-delivery.js';
export {
  createWebhookVerifier,
  type VerifiedDelivery,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSync,
  type WebhookDeliveryInput,
  type WebhookVerifier,
  type WebhookVerifierOptions,
} from './verify.js';
export { WEBHOOK_ERROR_STATUS, type WebhookErrorCode, WebhookVerificationError } from './webhook-errors.js';
export type * as WebhookTypes from './webhook-types.js';
