import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../../src/schemas/primitives.js';

/** Production's email rule: its pattern, case-insensitive, at most 50 characters. */
export function isValidEmail(email: string): boolean {
  return email.length <= 50 && EMAIL_PATTERN.test(email);
}

/** Production's password rule (spec, Limits). */
export function isValidPassword(password: string): boolean {
  return password.length >= MIN_PASSWORD_LENGTH;
}

/** An absolute http(s) URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The host of a URL, lower-cased (what makes two branded domains the same). */
export function hostOf(text: string): string {
  try {
    return new URL(text).host.toLowerCase();
  } catch {
    return text.toLowerCase();
  }
}

/** Case-insensitive equality, for usernames and emails. */
export function sameText(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
