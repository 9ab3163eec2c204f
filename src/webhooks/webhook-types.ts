/**
 * The supporting types of `linkgate/webhooks`: handler contexts, the shapes of raw deliveries, secrets and test
 * deliveries, error details and the parsed-event variants. Reached as `WebhookTypes.X`, so the entry's top level stays
 * the few names a receiver starts from.
 *
 * @module
 */
export type { DedupeClaim, MemoryDedupeStoreOptions } from './dedupe.js';
export type { DedupeKeyOption } from './dedupe-key.js';
export type { DeliveryContext, EventHandler, HandlerFailureContext } from './handler.js';
export type { HeaderSource, NodeHeaders } from './header-reader.js';
export type { MediaVerdict } from './media.js';
export type { NodeResponseLike } from './node-handler.js';
export type { NodeRequestLike } from './node-request.js';
export type { KnownWebhookEvent, UnknownWebhookEvent } from './parse.js';
export type { RawBody } from './raw-body.js';
export type { SecretList, TenantAndDeviceSecrets } from './secrets.js';
export type { NamedTestEvent, TestDeliveryCommon, TestEventObject } from './test-delivery.js';
export type { WebhookErrorDetails, WebhookPayloadIssue } from './webhook-errors.js';
