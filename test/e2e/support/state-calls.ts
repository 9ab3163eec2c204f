// What the state-file and snapshot end-to-end tests do over HTTP: call the management API with a key, the control
// API with its token, and build up state the way a developer's day does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** An answer: status and body text. */
export interface Answer {
  status: number;
  text: string;
}

/** Calls `path` on `url` with `Authorization: Bearer <key>` and a JSON body when given. */
export async function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** `GET /__mock/snapshot`, parsed. */
export async function snapshotOf(url: string, token: string): Promise<unknown> {
  const answer = await call(url, token, 'GET', '/__mock/snapshot');
  if (answer.status !== 200) throw new Error(`GET /__mock/snapshot answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text);
}

/** Records through both APIs, named by `tag`: a user, a domain, a pixel, a QR code, a device, its webhook, a key. */
export async function buildState(url: string, adminKey: string, token: string, tag: string): Promise<void> {
  const ok = async (answer: Promise<Answer>, what: string) => {
    const { status, text } = await answer;
    if (status >= 300 || /"error":\s*1/.test(text)) throw new Error(`${what} answered ${status}: ${text}`);
    return text;
  };
  await ok(call(url, adminKey, 'POST', '/api/domain/add', { domain: `https://${tag}.example.com` }), 'domain');
  await ok(
    call(url, adminKey, 'POST', '/api/pixel/add', { type: 'gtmpixel', name: `px ${tag}`, tag: `GTM-${tag}` }),
    'pixel',
  );
  await ok(call(url, adminKey, 'POST', '/api/qr/add', { type: 'link', data: `https://${tag}.example.com/menu` }), 'qr');
  await ok(call(url, token, 'POST', '/__mock/devices', { id: `phone-${tag}`, name: `Phone ${tag}` }), 'device');
  await ok(
    call(url, token, 'POST', '/__mock/webhooks', {
      device_id: `phone-${tag}`,
      url: `https://${tag}.example.com/hooks`,
      secret: `whsec_dev_${'ab'.repeat(16)}`,
    }),
    'webhook',
  );
  await ok(call(url, token, 'POST', '/__mock/keys', { tenant: `t-${tag}`, label: tag }), 'key');
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
/** A fresh folder for state files, removed after the file's tests. */
export function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-state-'));
  dirs.push(dir);
  return dir;
}
