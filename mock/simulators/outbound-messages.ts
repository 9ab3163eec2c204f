import { SendMessage } from '../../src/schemas/messaging.js';
import type { Timer } from '../../src/shared/clock.js';
import type { Device } from '../messaging/device-registry.js';
import { SendRejection, type SentMessage } from '../messaging/sent-message.js';
import type { ReceiptSimulator, ReceiptStatus } from './receipt-simulator.js';
import { messageId, type SimulatorContext } from './simulator-context.js';

/** When each event of a sent message happens, in ms after the send (sent, delivered, read, played). */
export const RECEIPT_TIMELINE_MS = { sent: 1_000, delivered: 2_000, read: 3_000, played: 4_000 } as const;

const AUDIO_EXTENSIONS = /\.(mp3|ogg|oga|opus|m4a|aac|wav|amr)$/i;

/**
 * Outbound messages of the messaging API: a send to an ONLINE device (or `device_id: "auto"`, the tenant's first
 * online device) is queued and then produces, on the clock, `message.sent` and `message.ack` sent at +1 s,
 * `delivered` at +2 s, `read` at +3 s, and `played` at +4 s when `media_url` is audio.
 */
export class OutboundMessages {
  readonly #ctx: SimulatorContext;
  readonly #receipts: ReceiptSimulator;
  readonly #timers = new Set<Timer>();

  constructor(ctx: SimulatorContext, receipts: ReceiptSimulator) {
    this.#ctx = ctx;
    this.#receipts = receipts;
  }

  /** Validates and queues a message for `tenant`; throws a {@link SendRejection} when it cannot be sent. */
  send(tenant: string, body: unknown): SentMessage {
    const parsed = SendMessage.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || 'body';
      const given = issue.path.length === 1 ? (body as Record<PropertyKey, unknown>)[issue.path[0]!] : body;
      const expected = withArticle(String((issue as { expected?: string }).expected ?? 'value'));
      const rule =
        issue.code !== 'invalid_type'
          ? issue.message
          : given === undefined
            ? `is required and must be ${expected}`
            : `must be ${expected} (got ${withArticle(given === null ? 'null' : Array.isArray(given) ? 'array' : typeof given)})`;
      throw new SendRejection(400, 'VALIDATION_ERROR', `${field} ${rule}`, field);
    }
    const input = parsed.data;
    const device = this.#pick(tenant, input.device_id);
    const id = messageId(this.#ctx);
    const audio = input.media_url !== undefined && AUDIO_EXTENSIONS.test(new URL(input.media_url).pathname);
    this.#later(RECEIPT_TIMELINE_MS.sent, () => {
      this.#receipts.sent({ device_id: device.id, message_id: id, recipient: input.phone, text: input.message });
      this.#ack(device, id, input.phone, 'sent');
    });
    this.#later(RECEIPT_TIMELINE_MS.delivered, () => this.#ack(device, id, input.phone, 'delivered'));
    this.#later(RECEIPT_TIMELINE_MS.read, () => this.#ack(device, id, input.phone, 'read'));
    if (audio) this.#later(RECEIPT_TIMELINE_MS.played, () => this.#ack(device, id, input.phone, 'played'));
    return { message_id: id, device_id: device.id, phone: input.phone, status: 'queued' };
  }

  /** Cancels the receipts still to come. */
  clear(): void {
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
  }

  #pick(tenant: string, deviceId: string): Device {
    if (deviceId === 'auto') {
      const device = this.#ctx.devices.firstOnline(tenant);
      if (!device) {
        throw new SendRejection(
          409,
          'NO_ONLINE_DEVICE',
          'device_id "auto" found no ONLINE device for this API key; connect (pair) a device first.',
          'device_id',
        );
      }
      return device;
    }
    const device = this.#ctx.devices.get(deviceId);
    // Another tenant's device is reported as unknown, so keys cannot probe other workspaces.
    if (!device || device.tenant !== tenant) {
      throw new SendRejection(
        404,
        'DEVICE_NOT_FOUND',
        `device_id "${deviceId}" is not a device of this API key's workspace.`,
        'device_id',
      );
    }
    if (device.status !== 'ONLINE') {
      throw new SendRejection(
        409,
        'DEVICE_NOT_ONLINE',
        `device_id "${deviceId}" is ${device.status}; messages can be sent only through an ONLINE device.`,
        'device_id',
      );
    }
    return device;
  }

  #ack(device: Device, id: string, phone: string, status: ReceiptStatus): void {
    this.#receipts.ack({ device_id: device.id, message_id: id, recipient: phone, status });
  }

  #later(ms: number, fn: () => void): void {
    const timer = this.#ctx.clock.setTimeout(() => {
      this.#timers.delete(timer);
      try {
        fn();
      } catch {
        // The device was removed meanwhile: its receipts are simply not produced.
      }
    }, ms);
    this.#timers.add(timer);
  }
}

/** `a string`, `an object`. */
function withArticle(word: string): string {
  return word === 'null' ? word : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}
