// A receiver that routes every gateway event through the webhook toolkit, as the README's quick start does.
import { createWebhookHandler } from '../../src/webhooks/index.js';

/** The route handler. */
export const POST = createWebhookHandler({
  secret: 'whsec_live_0123456789abcdef0123456789abcdef',
  dedupe: true,
  on: {
    'message.received': (event) => console.log(event.data.text),
    'message.ack': (event) => console.log(event.data.status),
    'message.sent': (event) => console.log(event.data),
    'device.status': (event) => console.log(event.data.status),
    'device.qr': (event) => console.log(event.data),
  },
});
