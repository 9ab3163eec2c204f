// What the messaging API's send answers: the accepted message, or why it was refused. A leaf, so the messaging
// routes read it without importing the simulator that queues the message (mock/simulators/outbound-messages.ts).

/** A refused send: HTTP status, machine code and a message naming the field and the fix. */
export class SendRejection extends Error {
  override readonly name = 'SendRejection';
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The answer of an accepted send (the service's documentation does not show it; see SendMessageResult). */
export interface SentMessage {
  message_id: string;
  device_id: string;
  phone: string;
  status: 'queued';
}
