import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../../src/schemas/primitives.js';

/** Production's email rule: its pattern, case-insensitive, at most 50 characters. */
export function isValidEmail(email: string): boolean {
  return email.length <= 50 && EMAIL_PATTERN.test(email);
}

/** Production's password rule (spec, Limits). */
export function isValidPassword(password: string): boolean {
  return password.length >= MIN_PASSWORD_LENGTH;
}

/**
 * What makes two branded domains the same: the host name, lower-cased, without a port or the trailing dot of a fully
 * qualified name, so `https://Go.Alice.example.:8443` and `http://go.alice.example` are one domain.
 */
export function hostKey(text: string): string {
  let host: string;
  try {
    host = new URL(text.trim()).hostname.toLowerCase();
  } catch {
    host = text.trim().toLowerCase();
  }
  // A loop, not /\.+$/: that pattern re-scans a run of dots from each of its starts.
  let end = host.length;
  while (end > 0 && host[end - 1] === '.') end--;
  return host.slice(0, end);
}
