import type { EventMap, EventName } from '../schemas/events.js';

// A 1x1 PNG: a valid `data:image/png;base64,` URI kept tiny, since this entry ships to receivers (the CLI draws a
// real QR code in its place).
const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==';
const PHONE = '6281234567890';
const JID = `${PHONE}@s.whatsapp.net`;

/** A message id shaped like the gateway's: `3EB0` and 16 upper-case hex digits, fresh on every call. */
function messageId(): string {
  return `3EB0${crypto.randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
}

/**
 * A realistic `data` payload for an event of the catalog, valid against its schema, with a fresh message id and
 * times at `timestamp` (Unix seconds).
 */
export function sampleEventData<E extends EventName>(event: E, timestamp: number): EventMap[E]['data'] {
  const samples: { [K in EventName]: () => EventMap[K]['data'] } = {
    'message.received': () => ({
      message_id: messageId(),
      sender: PHONE,
      sender_jid: JID,
      push_name: 'Ayu Lestari',
      text: 'Hi! Is my order on its way?',
      has_media: false,
      timestamp,
    }),
    'message.ack': () => ({
      message_id: messageId(),
      chat_jid: JID,
      recipient: PHONE,
      status: 'delivered',
      status_code: 2,
      timestamp,
    }),
    'message.sent': () => ({
      message_id: messageId(),
      recipient: PHONE,
      recipient_jid: JID,
      text: 'Your order #1042 has shipped.',
      status: 'sent',
      timestamp,
    }),
    'device.status': () => ({ device_name: 'Front desk', phone: PHONE, status: 'ONLINE', reason: 'paired' }),
    'device.qr': () => ({
      qr_code: `2@${messageId()}${messageId()},${messageId()}=,${messageId()}=`,
      qr_image_url: TINY_PNG,
      attempt: 1,
      expires_in: 20,
    }),
  };
  return samples[event]() as EventMap[E]['data'];
}
