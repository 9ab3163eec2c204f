import type { DeviceQrEvent } from '../schemas/events.js';
import { WebhookVerificationError } from './webhook-errors.js';

const PREFIX = 'data:image/png;base64,';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The PNG bytes of a `device.qr` frame's `qr_image_url` (a base64 data URI), checked to be a PNG. Takes the event, its
 * `data`, or the data URI itself. Uses `atob`, so it runs on every runtime.
 *
 * @throws {WebhookVerificationError} `invalid_payload` when the data URI is not base64 PNG.
 * @example
 * const png = decodeQrImage(event);
 * await writeFile('pairing.png', png);
 */
export function decodeQrImage(event: Pick<DeviceQrEvent, 'data'> | DeviceQrEvent['data'] | string): Uint8Array {
  const uri = typeof event === 'string' ? event : qrImageUrlOf(event);
  if (typeof uri !== 'string' || !uri.startsWith(PREFIX)) {
    throw qrError(`qr_image_url must be a data URI starting with ${PREFIX}`);
  }
  let binary: string;
  try {
    binary = atob(uri.slice(PREFIX.length));
  } catch {
    throw qrError('qr_image_url does not hold valid base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw qrError('qr_image_url does not hold a PNG image (the PNG signature is missing)');
  }
  return bytes;
}

/** `qr_image_url` of an event or its data; undefined for anything else, which the caller reports as unusable. */
function qrImageUrlOf(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return undefined;
  const data = 'qr_image_url' in input ? input : (input as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as { qr_image_url?: unknown }).qr_image_url : undefined;
}

function qrError(rule: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_payload', `The device.qr frame is unusable: ${rule}.`, {
    issues: [{ path: ['data', 'qr_image_url'], message: rule, code: 'custom' }],
  });
}
