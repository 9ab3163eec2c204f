// The bytes real clients of other languages put on the wire, sent with node:http so nothing is added or re-encoded.
import { request } from 'node:http';

/** The answer to one raw request. */
export interface WireAnswer {
  status: number;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the answers they check.
  json: any;
}

/**
 * A value as Python's `json.dumps` writes it (what `requests.post(url, json=...)` sends): `", "` and `": "` as
 * separators, `None` as `null`, non-ASCII escaped as `\uXXXX`.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${asciiJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  return typeof value === 'string' ? asciiJson(value) : JSON.stringify(value);
}

function asciiJson(text: string): string {
  let out = '';
  for (const ch of JSON.stringify(text)) {
    const code = ch.charCodeAt(0);
    out += code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
  }
  return out;
}

/** The headers Python `requests` sends with `json=` (and an API key). */
export function pythonRequestsHeaders(key: string): Record<string, string> {
  return {
    'User-Agent': 'python-requests/2.32.3',
    'Accept-Encoding': 'gzip, deflate',
    Accept: '*/*',
    Connection: 'keep-alive',
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
  };
}

/** Sends exactly these headers and body bytes (plus `Host` and, with a body, `Content-Length`). */
export function sendRaw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<WireAnswer> {
  const url = new URL(path, baseUrl);
  const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: { ...headers, ...(bytes ? { 'Content-Length': String(bytes.length) } : {}) },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} got no answer within 10 s`)));
    req.on('error', reject);
    req.end(bytes);
  });
}
