// URLs as the drift commands may print them: a user name, a password, a query or a fragment can each hold a secret
// (`https://deploy:PASS@host/`, `?token=`, the inspector link's `#token=`), so none of them is ever shown.
import { HIDDEN } from './findings.js';

/** The scheme (if any) and `user:password@` at the start of a URL's text (anchored: linear on any input). */
const USERINFO = /^([a-z][a-z\d+.-]*:\/\/)?[^/?#]*@/i;

/**
 * A URL safe to print: its user name and password, query and fragment each replaced by {@link HIDDEN}. Text that does
 * not parse as a URL is cut the same way, by its characters.
 *
 * @example
 * printableUrl('http://u:pw@127.0.0.1:4010/links?key=k#token=t'); // 'http://[hidden]@127.0.0.1:4010/links?[hidden]#[hidden]'
 */
export function printableUrl(url: URL | string): string {
  let text = typeof url === 'string' ? url : url.href;
  const cuts = [text.indexOf('?'), text.indexOf('#')].filter((i) => i >= 0);
  const cut = cuts.length === 0 ? text.length : Math.min(...cuts);
  const tail = text.slice(cut);
  text = text.slice(0, cut).replace(USERINFO, `$1${HIDDEN}@`);
  const query = tail.startsWith('?') ? `?${HIDDEN}` : '';
  return `${text}${query}${tail.includes('#') ? `#${HIDDEN}` : ''}`;
}

/** Whether a URL carries a user name or a password. */
export const hasCredentials = (url: URL): boolean => url.username !== '' || url.password !== '';
