// Another language's test suite sets up state over HTTP only: a fixture loaded in one request, then a reset, from a
// program in its own process against the CLI's server (plain fetch, as any HTTP client would).
import { describe, expect, it } from 'vitest';
import { describeRun, runProgram, startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-state-token';

describe('control API state endpoints over HTTP', () => {
  it('loads a fixture, serves it through the API, and resets to the start seed', async () => {
    const cli = await startCli(['--seed', 'demo', '--control-token', TOKEN, '--rate-limit', '30/60s']);
    const program = await runProgram(
      {
        source: `
const [url, token] = process.argv.slice(2);
const control = (path, body) => fetch(url + '/__mock/' + path, {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const fixture = {
  users: [{ username: 'dana_qa', email: 'dana@example.com', password: 'secret-1', apikey: 'dana-key-123456' }],
  domains: Array.from({ length: 40 }, (_, i) => ({ owner: 'dana_qa', domain: 'https://d' + i + '.dana.example' })),
  qrs: [{ owner: 'dana_qa', type: 'link', data: 'https://dana.example/menu' }],
  devices: [{ tenant: 'dana', id: 'dana-phone' }],
};
const loaded = await control('fixture', fixture);
const created = await loaded.json();
console.log('fixture', loaded.status, created.domains.length);
const image = await fetch(created.qrs[0].link);
console.log('qr image', created.qrs[0].link.startsWith(url + '/api/qr/image/'), image.status, image.headers.get('content-type'));
const page = await (await fetch(url + '/api/domains?limit=50', { headers: { authorization: 'Bearer dana-key-123456' } })).json();
console.log('listed', page.data.domains.length);
const bad = await control('fixture', { users: [{ username: 'x', email: 'nope' }] });
console.log('bad', bad.status, (await bad.json()).field);
const reset = await control('reset');
console.log('reset', reset.status);
const after = await fetch(url + '/api/domains', { headers: { authorization: 'Bearer dana-key-123456' } });
console.log('after reset', after.status);
`,
      },
      { args: [cli.url, TOKEN], timeoutMs: 90_000 },
    );
    expect(program.code, describeRun(program)).toBe(0);
    // 40 domains in one request: the fixture does not spend the 30-per-minute rate limit.
    expect(program.stdout).toContain('fixture 201 40');
    expect(program.stdout).toContain('listed 40');
    // The QR code's link points at the server the fixture was sent to, and serves its PNG.
    expect(program.stdout).toContain('qr image true 200 image/png');
    expect(program.stdout).toContain('bad 400 users[0].username');
    expect(program.stdout).toContain('reset 200');
    // The fixture's user is gone with the reset: its key is unknown again.
    expect(program.stdout).toContain('after reset 403');
    expect(cli.out()).toMatch(/POST \/__mock\/fixture 201 control token/);
    expect(await cli.stop()).toBe(0);
  });
});
