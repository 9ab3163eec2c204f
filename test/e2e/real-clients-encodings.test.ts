import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliServer, startCli } from './support/processes.js';
import { pythonJson, pythonRequestsHeaders, sendRaw } from './support/real-clients-wire.js';

// Issue 16: how clients of other languages encode values. Each decision of the README's "Decisions" is checked over
// HTTP against the CLI's server, with the bytes such a client sends.
const ADMIN_KEY = 'e2e-real-clients-enc-admin-0001';

describe('what real clients send, against the CLI server', () => {
  let cli: CliServer;
  const headers = pythonRequestsHeaders(ADMIN_KEY);
  const send = (method: string, path: string, body?: string, extra: Record<string, string> = {}) =>
    sendRaw(cli.url, method, path, { ...headers, ...extra }, body);

  // A server per test: the e2e support ends every process a test started when that test ends.
  beforeEach(async () => {
    cli = await startCli(['--seed', 'demo', '--rate-limit', 'off', '--admin-key', ADMIN_KEY, '--quiet']);
  });
  afterEach(async () => {
    await cli?.stop();
  });

  it('reads an integer field sent as a string of digits ("planid": "2") as the number, and refuses other text', async () => {
    const plans = await send('GET', '/api/plans');
    const pro = plans.json.data.find((p: { name: string }) => p.name === 'Pro');
    const user = { username: 'phpuser', email: 'php@client.example', password: 'secret' };
    const res = await send('POST', '/api/user/add', pythonJson({ ...user, planid: String(pro.id) }));
    expect(res.json).toMatchObject({ error: 0, message: 'User has been registered.' });
    const stored = await send('GET', `/api/user/${res.json.data.id}`);
    expect(stored.json.data).toMatchObject({ planid: pro.id, status: 'pro' });

    const refused = await send('POST', '/api/user/add', pythonJson({ ...user, username: 'phpuser2', planid: 'two' }));
    expect(refused.json).toEqual({
      error: 1,
      message: 'Invalid request: "planid" must be an integer or a string of digits.',
      issues: ['planid: must be an integer or a string of digits'],
    });
  });

  it('ignores flags the spec does not know, sent as 0/1 or true/false (no body of the spec has a boolean)', async () => {
    const res = await send('POST', '/api/domain/add', '{"domain":"https://go.flags.example","notify":1,"active":true}');
    expect(res.json).toMatchObject({ error: 0 });
    const list = await send('GET', '/api/domains');
    expect(list.json.data.domains).toEqual([
      { id: res.json.id, domain: 'https://go.flags.example', redirectroot: '', redirect404: '' },
    ]);
  });

  it('refuses a string field sent as a number, naming the field (a pixel tag of digits goes as a string)', async () => {
    const res = await send('POST', '/api/pixel/add', pythonJson({ type: 'fbpixel', name: 'FB', tag: 1234567890 }));
    expect(res.json).toEqual({
      error: 1,
      message: 'Invalid request: "tag" must be a string.',
      issues: ['tag: must be a string'],
    });
  });

  it('deletes alike whether a DELETE has no body, {}, null, or {} without a Content-Type', async () => {
    const withoutType = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'Content-Type'));
    const forms: [string | undefined, Record<string, string>][] = [
      [undefined, headers],
      ['{}', headers],
      ['null', headers],
      ['{}', withoutType],
    ];
    for (const [i, [body, sent]] of forms.entries()) {
      const added = await send('POST', '/api/domain/add', pythonJson({ domain: `https://del${i}.client.example` }));
      expect(added.json.error).toBe(0);
      const res = await sendRaw(cli.url, 'DELETE', `/api/domain/${added.json.id}/delete`, sent, body);
      expect(res.json, `DELETE with body ${body}`).toEqual({
        error: 0,
        message: 'Domain has been deleted successfully.',
      });
    }
  });

  it('reads a PUT without a body as one with {}', async () => {
    const none = await send('PUT', '/api/account/update');
    const empty = await send('PUT', '/api/account/update', '{}');
    expect(none.json).toEqual({ error: 0, message: 'No changes were done to the account.' });
    expect(empty.json).toEqual(none.json);
  });

  it('accepts a body declared as application/json with charset utf-8 in any spelling', async () => {
    const spellings = [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON; Charset="utf-8"',
    ];
    for (const [i, contentType] of spellings.entries()) {
      // Raw UTF-8 bytes, as Java and .NET clients (which add the charset) send them; Python escapes non-ASCII.
      const body = JSON.stringify({ type: 'gapixel', name: 'Ünïcode', tag: `G-CHARSET${i}` });
      const res = await send('POST', '/api/pixel/add', body, { 'Content-Type': contentType });
      expect(res.json, contentType).toMatchObject({ error: 0 });
    }
    const list = await send('GET', '/api/pixels');
    expect(list.json.data.pixels.map((p: { name: string; tag: string }) => `${p.name} ${p.tag}`)).toEqual([
      'Ünïcode G-CHARSET2',
      'Ünïcode G-CHARSET1',
      'Ünïcode G-CHARSET0',
    ]);
  });
});
