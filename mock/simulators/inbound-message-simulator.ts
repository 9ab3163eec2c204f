import type { PublishResult } from '../delivery/delivery-engine.js';
import type { ChatKind } from '../messaging/chat-kind.js';
import { ACCEPTED_MEDIA_TYPES, MEDIA_MAX_BYTES } from '../messaging/media-store.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { chatField, intField, objectInput, phoneField, stringField } from './simulation-input.js';
import { dropChatEvent, messageId, publishEvent, type SimulatorContext, unixSeconds } from './simulator-context.js';

/** Attachment of a simulated inbound message: bytes (or base64 over HTTP), or just a size for synthetic content. */
export interface SimulatedMedia {
  mime_type: string;
  file_name?: string;
  /** The file's bytes; over the control API a base64 string. */
  data?: Uint8Array | string;
  /** Size in bytes of synthetic content when `data` is omitted. */
  file_size?: number;
}

/** Input of {@link InboundMessageSimulator.message}. */
export interface SimulatedInboundMessage {
  device_id: string;
  /** Sender phone, digits. */
  sender: string;
  text?: string;
  push_name?: string;
  /** Chat id; `…@g.us`, `status@broadcast` and `…@newsletter` chats are dropped. @default `<sender>@s.whatsapp.net` */
  chat_jid?: string;
  /** Alternative to `chat_jid`. @default 'direct' */
  chat_type?: ChatKind;
  media?: SimulatedMedia;
  message_id?: string;
}

/** What a simulated inbound message produced. */
export interface InboundResult {
  message_id: string;
  delivery: PublishResult;
  /** The media diagnostic when the attachment was dropped. */
  media_error?: 'media_too_large' | 'media_unsupported_type';
  /** The URL the attachment is served at while it is stored. */
  media_url?: string;
}

/**
 * Simulates an inbound one-to-one message and its `message.received` event, applying the media rules: JPEG, PNG,
 * WebP and PDF up to 1 MB are stored under `tmp/` for 7 days; anything else is dropped with `has_media: false` and
 * `data.media_error` (`media_too_large` or `media_unsupported_type`).
 */
export class InboundMessageSimulator {
  readonly #ctx: SimulatorContext;

  constructor(ctx: SimulatorContext) {
    this.#ctx = ctx;
  }

  /** Simulates one inbound message. */
  message(input: SimulatedInboundMessage): InboundResult {
    const body = objectInput(input);
    const device = this.#ctx.devices.require(body.device_id);
    const sender = phoneField(body, 'sender', true);
    const text = stringField(body, 'text') ?? '';
    const pushName = stringField(body, 'push_name') ?? 'Simulated Sender';
    const { kind } = chatField(body, `${sender}@s.whatsapp.net`);
    const id = stringField(body, 'message_id') ?? messageId(this.#ctx);
    const media = body.media === undefined ? undefined : readMedia(body.media);
    if (kind !== 'direct') {
      return { message_id: id, delivery: dropChatEvent(this.#ctx, device, 'message.received', kind) };
    }
    const data: Record<string, unknown> = {
      message_id: id,
      sender,
      sender_jid: `${sender}@s.whatsapp.net`,
      push_name: pushName,
      text,
      has_media: false,
      timestamp: unixSeconds(this.#ctx),
    };
    let mediaError: InboundResult['media_error'];
    let mediaUrl: string | undefined;
    if (media) {
      const type = ACCEPTED_MEDIA_TYPES[media.mimeType];
      if (!type) mediaError = 'media_unsupported_type';
      else if (media.bytes.length > MEDIA_MAX_BYTES) mediaError = 'media_too_large';
      else {
        const stored = this.#ctx.media.put(media.fileName, media.mimeType, media.bytes);
        mediaUrl = this.#ctx.media.url(this.#ctx.origin(), stored);
        data.has_media = true;
        data.media = {
          type,
          url: mediaUrl,
          file_name: media.fileName,
          mime_type: media.mimeType,
          file_size: media.bytes.length,
        };
      }
      if (mediaError) data.media_error = mediaError;
    }
    const delivery = publishEvent(this.#ctx, device, 'message.received', data);
    return {
      message_id: id,
      delivery,
      ...(mediaError && { media_error: mediaError }),
      ...(mediaUrl && { media_url: mediaUrl }),
    };
  }
}

function readMedia(value: unknown): { mimeType: string; fileName: string; bytes: Uint8Array } {
  if (typeof value !== 'object' || value === null)
    throw new GatewayInputError('media', 'must be an object with mime_type');
  const media = value as Record<string, unknown>;
  const mimeType = stringField(media, 'mime_type', true).toLowerCase();
  const fileName = stringField(media, 'file_name') ?? `file.${mimeType.split('/')[1] ?? 'bin'}`;
  let bytes: Uint8Array;
  if (media.data instanceof Uint8Array) bytes = media.data;
  else if (typeof media.data === 'string') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(media.data)) throw new GatewayInputError('media.data', 'must be base64');
    bytes = Uint8Array.from(atob(media.data), (c) => c.charCodeAt(0));
  } else if (media.data === undefined) {
    const size = intField(media, 'file_size', 0, 64 * 1024 * 1024);
    if (size === undefined) throw new GatewayInputError('media', 'needs data (bytes or base64) or file_size');
    bytes = new Uint8Array(size);
  } else throw new GatewayInputError('media.data', 'must be bytes or a base64 string');
  return { mimeType, fileName, bytes };
}
