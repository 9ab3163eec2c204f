import { ACK_STATUS_CODES } from '../../src/schemas/events.js';
import type { PublishResult } from '../delivery/delivery-engine.js';
import type { ChatKind } from '../messaging/chat-kind.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { chatField, enumField, objectInput, phoneField, stringField } from './simulation-input.js';
import { dropChatEvent, publishEvent, type SimulatorContext, unixSeconds } from './simulator-context.js';

// Written out rather than read off ACK_STATUS_CODES: the declaration bundler cannot name a constant of a chunk shared
// with linkgate/webhooks. test/mock/simulators/receipt-status.test-d.ts keeps the two the same.
/** A receipt status of `message.ack`. */
export type ReceiptStatus = 'sent' | 'delivered' | 'read' | 'played';
const RECEIPT_STATUSES = Object.keys(ACK_STATUS_CODES) as ReceiptStatus[];

/** Input of {@link ReceiptSimulator.ack}. */
export interface SimulatedReceipt {
  device_id: string;
  message_id: string;
  /** Recipient phone, digits (E.164 without `+`). */
  recipient: string;
  status: ReceiptStatus;
  /** Destination chat; group/story/channel chats are dropped. @default `<recipient>@s.whatsapp.net` */
  chat_jid?: string;
  chat_type?: ChatKind;
}

/** Input of {@link ReceiptSimulator.sent}. */
export interface SimulatedDispatch {
  device_id: string;
  message_id: string;
  recipient: string;
  text?: string;
  chat_jid?: string;
  chat_type?: ChatKind;
}

/** Simulates delivery receipts (`message.ack`) and dispatch confirmations (`message.sent`) of outbound messages. */
export class ReceiptSimulator {
  readonly #ctx: SimulatorContext;

  constructor(ctx: SimulatorContext) {
    this.#ctx = ctx;
  }

  /** Emits one `message.ack` with `status` and its matching `status_code` (1 sent ... 4 played). */
  ack(input: SimulatedReceipt): PublishResult {
    const body = objectInput(input);
    const device = this.#ctx.devices.require(body.device_id);
    const id = stringField(body, 'message_id', true);
    const recipient = phoneField(body, 'recipient', true);
    const status = enumField(body, 'status', RECEIPT_STATUSES);
    if (!status) throw new GatewayInputError('status', `is required: one of ${RECEIPT_STATUSES.join(', ')}`);
    const { jid, kind } = chatField(body, `${recipient}@s.whatsapp.net`);
    if (kind !== 'direct') return dropChatEvent(this.#ctx, device, 'message.ack', kind);
    return publishEvent(this.#ctx, device, 'message.ack', {
      message_id: id,
      chat_jid: jid,
      recipient,
      status,
      status_code: ACK_STATUS_CODES[status],
      timestamp: unixSeconds(this.#ctx),
    });
  }

  /** Emits one `message.sent` (observed shape: message_id, recipient, recipient_jid, text, status, timestamp). */
  sent(input: SimulatedDispatch): PublishResult {
    const body = objectInput(input);
    const device = this.#ctx.devices.require(body.device_id);
    const id = stringField(body, 'message_id', true);
    const recipient = phoneField(body, 'recipient', true);
    const { jid, kind } = chatField(body, `${recipient}@s.whatsapp.net`);
    if (kind !== 'direct') return dropChatEvent(this.#ctx, device, 'message.sent', kind);
    return publishEvent(this.#ctx, device, 'message.sent', {
      message_id: id,
      recipient,
      recipient_jid: jid,
      text: stringField(body, 'text') ?? '',
      status: 'sent',
      timestamp: unixSeconds(this.#ctx),
    });
  }
}
