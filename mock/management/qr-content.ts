import type { QrData, QrType } from '../../src/schemas/qr.js';

type Fields = Record<string, string | undefined>;

/**
 * The text a QR code of this type encodes, as observed in production: `mailto:`, `tel:`, `smsto:phone:message`,
 * `WIFI:S:..;T:..;P:..;;` and vCard 3.0; text and links as they are.
 *
 * @example
 * encodeQrContent('sms', { phone: '+15551234', message: 'hi' }) // 'smsto:+15551234:hi'
 */
export function encodeQrContent(type: QrType, data: QrData): string {
  switch (type) {
    case 'email':
      return typeof data === 'string' ? `mailto:${data}` : mailto(data as Fields);
    case 'phone':
      return `tel:${String(data)}`;
    case 'sms': {
      const { phone = '', message = '' } = data as Fields;
      return `smsto:${phone}:${message}`;
    }
    case 'wifi': {
      const { ssid = '', pass = '', encryption = '' } = data as Fields;
      return `WIFI:S:${wifiEscape(ssid)};T:${wifiEscape(encryption)};P:${wifiEscape(pass)};;`;
    }
    case 'vcard':
      return vcard(data as Fields);
    default:
      return String(data);
  }
}

function mailto(fields: Fields): string {
  const query = new URLSearchParams();
  if (fields.subject) query.set('subject', fields.subject);
  if (fields.body) query.set('body', fields.body);
  const text = query.toString().replace(/\+/g, '%20');
  return `mailto:${fields.email ?? ''}${text ? `?${text}` : ''}`;
}

/** The WIFI: format reserves `\ ; , : "`; each is escaped with a backslash. */
function wifiEscape(text: string): string {
  return text.replace(/([\\;,:"])/g, '\\$1');
}

/** vCard (RFC 2426) escapes backslashes, commas, semicolons and newlines in values. */
function vcardEscape(text: string | undefined): string {
  return (text ?? '').replace(/([\\,;])/g, '\\$1').replace(/\r?\n/g, '\\n');
}

function vcard(f: Fields): string {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0'];
  const e = vcardEscape;
  lines.push(`N:${e(f.lname)};${e(f.fname)};;;`);
  lines.push(`FN:${[f.fname, f.lname].filter(Boolean).map(e).join(' ')}`);
  if (f.org) lines.push(`ORG:${e(f.org)}`);
  if (f.phone) lines.push(`TEL;TYPE=WORK,VOICE:${e(f.phone)}`);
  if (f.cell) lines.push(`TEL;TYPE=CELL:${e(f.cell)}`);
  if (f.fax) lines.push(`TEL;TYPE=FAX:${e(f.fax)}`);
  if (f.email) lines.push(`EMAIL;TYPE=INTERNET:${e(f.email)}`);
  if (f.site) lines.push(`URL:${e(f.site)}`);
  if (f.street || f.city || f.state || f.zip || f.country) {
    lines.push(`ADR;TYPE=WORK:;;${[f.street, f.city, f.state, f.zip, f.country].map(e).join(';')}`);
  }
  lines.push('END:VCARD');
  return lines.join('\r\n');
}
