// The messaging API's operations (messaging key); see ./operation.ts. The reference mock's own `GET
// /api/v1/wa/devices` is declared with its route (mock/messaging/messaging-routes.ts): the SDK does not call it.

import { lazy } from './lazy.js';
import { SendMessage, SendMessageResult } from './messaging.js';
import { operation } from './operation.js';

/** `POST /api/v1/wa/messages/send`: `client.messages.send`. */
export const sendMessage = /* @__PURE__ */ lazy(() =>
  operation({
    id: 'messages.send',
    method: 'POST',
    path: '/api/v1/wa/messages/send',
    tag: 'messaging',
    body: SendMessage,
    // The spec does not show the answer: read loosely, extra fields kept.
    response: SendMessageResult,
    select: (answer) => answer,
  }),
);

/** The messaging API's operations the SDK calls. */
export const MESSAGING_OPERATIONS = [sendMessage] as const;
