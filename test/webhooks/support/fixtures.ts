// Spec-shaped example deliveries and secrets shared by the webhook tests.
import QRCode from 'qrcode';
import { ManualClock } from '../../../mock/shared/manual-clock.js';
import type { EventMap, EventName } from '../../../src/schemas/events.js';

export const TENANT_SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
export const NEXT_TENANT_SECRET = 'whsec_live_fedcba9876543210fedcba9876543210';
export const DEVICE_SECRET = 'whsec_dev_00112233445566778899aabbccddeeff';
export const OTHER_DEVICE_SECRET = 'whsec_dev_ffeeddccbbaa99887766554433221100';
export const ALL_SECRETS = [TENANT_SECRET, NEXT_TENANT_SECRET, DEVICE_SECRET, OTHER_DEVICE_SECRET];

/** 2026-01-01T00:00:00Z, ManualClock's default start. */
export const NOW_MS = Date.UTC(2026, 0, 1);
export const NOW_S = NOW_MS / 1000;

export const clockAtNow = () => new ManualClock(NOW_MS);

export const messageReceived: EventMap['message.received'] = {
  event: 'message.received',
  device_id: 'device-1',
  timestamp: NOW_S,
  data: {
    message_id: '3EB0C767D26A1D5A9F3B',
    sender: '6281234567890',
    sender_jid: '6281234567890@s.whatsapp.net',
    push_name: 'Budi',
    text: 'Hello, is the order ready?',
    has_media: true,
    media: {
      type: 'image',
      url: 'https://storage.example.com/tmp/3EB0C767D26A1D5A9F3B.jpg',
      file_name: 'photo.jpg',
      mime_type: 'image/jpeg',
      file_size: 48_213,
    },
    timestamp: NOW_S - 1,
  },
};

export const messageAck: EventMap['message.ack'] = {
  event: 'message.ack',
  device_id: 'device-1',
  timestamp: NOW_S,
  data: {
    message_id: 'BAE5F2C1D0E9A8B7',
    chat_jid: '6281234567890@s.whatsapp.net',
    recipient: '6281234567890',
    status: 'read',
    status_code: 3,
    timestamp: NOW_S - 2,
  },
};

export const messageSent: EventMap['message.sent'] = {
  event: 'message.sent',
  device_id: 'device-1',
  timestamp: NOW_S,
  data: {
    message_id: 'BAE5F2C1D0E9A8B7',
    recipient: '6281234567890',
    recipient_jid: '6281234567890@s.whatsapp.net',
    text: 'Your order has shipped',
    status: 'sent',
    timestamp: NOW_S - 3,
  },
};

export const deviceStatus: EventMap['device.status'] = {
  event: 'device.status',
  device_id: 'device-1',
  timestamp: NOW_S,
  data: { device_name: 'Front desk', phone: '6281234567890', status: 'ONLINE', reason: 'connected', heat_score: 12 },
};

export async function deviceQr(): Promise<EventMap['device.qr']> {
  return {
    event: 'device.qr',
    device_id: 'device-1',
    timestamp: NOW_S,
    data: {
      qr_code: '2@Xy9k3LmN0pQrStUv,AbCdEf==,GhIjKl==,MnOpQr==',
      qr_image_url: await QRCode.toDataURL('2@Xy9k3LmN0pQrStUv,AbCdEf==,GhIjKl==,MnOpQr=='),
      attempt: 1,
      expires_in: 20,
    },
  };
}

export async function catalogExamples(): Promise<{ [E in EventName]: EventMap[E] }> {
  return {
    'message.received': messageReceived,
    'message.ack': messageAck,
    'message.sent': messageSent,
    'device.status': deviceStatus,
    'device.qr': await deviceQr(),
  };
}
