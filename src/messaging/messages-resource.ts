import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { validate } from '../core/validation.js';
import { SendMessage, type SendMessageResult } from '../schemas/messaging.js';
import { sendMessage } from '../schemas/messaging-operations.js';

/** Outbound messages of the messaging API. */
export class MessagesResource extends APIResource {
  /**
   * Sends a one-to-one message through a connected device (`POST /api/v1/wa/messages/send`). `device_id: "auto"`
   * picks the first online device. The spec does not show the answer: it is typed loosely as
   * {@link SendMessageResult} (`success`, optional `message`, optional `data` with `message_id`...), extra fields kept.
   * Not retried on failure (a POST could send twice).
   *
   * @example
   * const { data } = await messaging.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi!' });
   * console.log(data?.message_id);
   */
  send(body: SendMessage, options?: RequestOptions): APIPromise<SendMessageResult> {
    // The operation's fields (its body is SendMessage), not the generic callOf: a messaging-only bundle then carries
    // no path templating.
    const op = sendMessage;
    return this._client.request(() => ({
      operation: op.id,
      method: op.method,
      path: op.path,
      body: validate(SendMessage, body, op.id, 'body'),
      schema: op.response,
      select: op.select,
      options,
    }));
  }
}
