import type { OutboundEvent } from '../delivery/delivery-engine.js';

/** Messages the inspector remembers (newest); the gateway itself keeps no list of them. */
export const LOGGED_MESSAGES = 50;

/** The last pairing frame sent for a device: what its `device.qr` event carried, and when it expires. */
export interface PairingFrame {
  attempt: number;
  qrCode: string;
  /** The frame's PNG as the event's `qr_image_url` carries it (a data URI). */
  image: string;
  sentAt: number;
  expiresAt: number;
}

/** A message and the receipts seen for it, each status with the clock time it arrived. */
export interface LoggedMessage {
  messageId: string;
  deviceId: string;
  direction: 'out' | 'in';
  /** The other party's number. */
  peer: string;
  text: string;
  statuses: { status: string; at: number }[];
}

/**
 * What the inspector keeps of the events the gateway publishes (pairing frames, messages and their receipts), which
 * the gateway does not store itself. Bounded: one frame per device, the newest {@link LOGGED_MESSAGES} messages.
 */
export class PublishedLog {
  readonly #frames = new Map<string, PairingFrame>();
  readonly #messages = new Map<string, LoggedMessage>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Takes one published event in; returns whether it changed what the log shows. */
  record(event: OutboundEvent): boolean {
    const data = (event.payload.data ?? {}) as Record<string, unknown>;
    const at = this.#now();
    const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
    if (event.event === 'device.qr') {
      const seconds = typeof data.expires_in === 'number' ? data.expires_in : 20;
      this.#frames.set(event.deviceId, {
        attempt: Number(data.attempt),
        qrCode: text('qr_code'),
        image: text('qr_image_url'),
        sentAt: at,
        expiresAt: at + seconds * 1000,
      });
      return true;
    }
    const id = text('message_id');
    if (id === '') return false;
    if (event.event === 'message.received') {
      this.#add({
        messageId: id,
        deviceId: event.deviceId,
        direction: 'in',
        peer: text('sender'),
        text: text('text'),
        statuses: [{ status: 'received', at }],
      });
      return true;
    }
    if (event.event !== 'message.sent' && event.event !== 'message.ack') return false;
    const message =
      this.#messages.get(id) ??
      this.#add({
        messageId: id,
        deviceId: event.deviceId,
        direction: 'out',
        peer: text('recipient'),
        text: '',
        statuses: [],
      });
    if (event.event === 'message.sent') message.text = text('text');
    const status = text('status') || 'sent';
    if (!message.statuses.some((s) => s.status === status)) message.statuses.push({ status, at });
    return true;
  }

  /** The last frame of a device's pairing, if one was sent. */
  frame(deviceId: string): PairingFrame | undefined {
    return this.#frames.get(deviceId);
  }

  /** Messages, newest first: copies, since a receipt changes the logged message in place. */
  messages(): LoggedMessage[] {
    return [...this.#messages.values()].reverse().map((m) => ({ ...m, statuses: [...m.statuses] }));
  }

  /** Forgets everything (the backend was reset). */
  clear(): void {
    this.#frames.clear();
    this.#messages.clear();
  }

  #add(message: LoggedMessage): LoggedMessage {
    this.#messages.set(message.messageId, message);
    if (this.#messages.size > LOGGED_MESSAGES) this.#messages.delete(this.#messages.keys().next().value!);
    return message;
  }
}
