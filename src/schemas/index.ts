// Management and messaging shapes (zod/mini). Webhook payloads live in ./events.ts (zod/mini too) and are exported
// from `linkgate/webhooks`, so the browser SDK bundle never carries them.
export * from './account.js';
export * from './domain.js';
export * from './entity.js';
export * from './envelope.js';
export * from './limits.js';
export * from './messaging.js';
export * from './overlay.js';
export * from './page.js';
export * from './pixel.js';
export * from './plan.js';
export * from './primitives.js';
export * from './qr.js';
export * from './splash.js';
export * from './user.js';
