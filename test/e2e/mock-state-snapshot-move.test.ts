// Moving state between servers over HTTP, as a suite in any language does: a snapshot taken from one `linkgate mock`
// and put into another makes the two answer the same 30 calls alike. And what a hostile or careless client sends to
// PUT /__mock/snapshot (a body at the limit and over it, broken JSON, prototype keys) changes nothing stored.
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../mock/http/body-limit.js';
import { startCli } from './support/processes.js';
import { buildState, call, snapshotOf } from './support/state-calls.js';

const TOKEN = 'ctl-snapshot-move';
const ADMIN = 'admin-key-snapshot-move';
const base = ['--rate-limit', 'off', '--control-token', TOKEN, '--quiet'];

/** The 30 calls: every list and record of both APIs, as the admin, alice, bob and a messaging key. */
function calls(alice: string, bob: string, messagingKey: string): [string, string][] {
  const users = [ADMIN, alice, bob];
  const reads = ['/api/account', '/api/domains', '/api/pixels', '/api/qr', '/api/splash', '/api/overlay', '/api/plans'];
  return [
    ...users.flatMap((key) => reads.map((path): [string, string] => [key, path])),
    [ADMIN, '/api/users'],
    [ADMIN, '/api/user/2'],
    [alice, '/api/qr/1'],
    [TOKEN, '/__mock/devices'],
    [TOKEN, '/__mock/keys'],
    [TOKEN, '/__mock/webhooks?redact=0'],
    [TOKEN, '/__mock/dead-letters'],
    [messagingKey, '/api/v1/devices'],
    [bob, '/api/qr?limit=1&page=2'],
  ];
}

describe('a snapshot moved from one server to another', () => {
  it('makes the second answer the same 30 calls as the first', async () => {
    const first = await startCli(['--seed', 'demo', '--admin-key', ADMIN, ...base]);
    await buildState(first.url, ADMIN, TOKEN, 'moved');
    const messagingKey = JSON.parse((await call(first.url, TOKEN, 'POST', '/__mock/keys', {})).text).key as string;
    const snapshot = (await call(first.url, TOKEN, 'GET', '/__mock/snapshot')).text;

    const second = await startCli(['--seed', 'empty', ...base]);
    const put = await call(second.url, TOKEN, 'PUT', '/__mock/snapshot', snapshot);
    expect(put.status).toBe(200);
    const keys = Object.fromEntries(
      (JSON.parse(put.text).users as { username: string; apikey: string }[]).map((u) => [u.username, u.apikey]),
    );
    const list = calls(keys.alice!, keys.bob_smith!, messagingKey);
    expect(list).toHaveLength(30);
    for (const [key, path] of list) {
      const [a, b] = [await call(first.url, key, 'GET', path), await call(second.url, key, 'GET', path)];
      // QR image links point at the server answering; everything else is the same.
      expect(b.text.replaceAll(second.url, 'URL'), path).toBe(a.text.replaceAll(first.url, 'URL'));
      expect(b.status, path).toBe(a.status);
    }
    // The request log names the call, never the secrets the snapshot carries.
    expect(first.out()).not.toContain(`whsec_dev_${'ab'.repeat(16)}`);
    expect(await first.stop()).toBe(0);
    expect(await second.stop()).toBe(0);
  });

  it('is refused whole when hostile or broken, and nothing stored changes', async () => {
    const cli = await startCli(['--seed', 'demo', ...base]);
    const before = await snapshotOf(cli.url, TOKEN);
    const text = JSON.stringify(before);
    const put = (body: string) => call(cli.url, TOKEN, 'PUT', '/__mock/snapshot', body);

    // At the limit, whitespace and all, it is read; a byte over, it is refused before it is read.
    const atLimit = text + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(text));
    expect((await put(atLimit)).status).toBe(200);
    expect((await put(`${atLimit} `)).status).toBe(413);
    const { gateway } = before as { gateway: object };
    const spoiled = JSON.stringify({ ...(before as object), gateway: { ...gateway, keys: 1 } });
    for (const [body, field] of [
      ['{"format": "linkgate-mock-state", "version": 1, "store": {', 'body'],
      ['null', 'body'],
      [spoiled, 'snapshot.gateway.keys'],
      [text.replace('"store":{', '"store":{"__proto__":{"admin":true},'), 'snapshot.store.__proto__'],
      [
        text.replace('"users":[{', '"users":[{"constructor":{"prototype":{"admin":true}},'),
        'snapshot.store.users[0].constructor',
      ],
      [JSON.stringify({ ...(before as object), version: 99 }), 'snapshot.version'],
    ] as const) {
      const answer = await put(body);
      expect(answer.status, body.slice(0, 80)).toBe(400);
      expect(JSON.parse(answer.text).field).toBe(field);
    }
    expect(await snapshotOf(cli.url, TOKEN)).toEqual(before);
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
    expect(await cli.stop()).toBe(0);
  });
});
