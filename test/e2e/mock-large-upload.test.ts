// A client uploading more than the mock accepts must read the 413, not a reset: real clients (curl, which sends
// `Expect: 100-continue`; Python's http.client; node:http) upload 16 MB with a declared length to the CLI's server.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';

const SIZE = 16 * 1024 * 1024;
const ADMIN_KEY = 'large-upload-admin-key';

const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

function nodeUpload(url: string): Promise<{ status: number | undefined; body: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/domain/add`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json', 'content-length': SIZE },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: undefined, body: '', error: error.code }));
    req.end(Buffer.alloc(SIZE, 'x'));
  });
}

describe('an upload over 1 MB with a declared length', () => {
  it('gets a readable 413 from every client, and nothing is stored', async () => {
    const cli = await startCli(['--seed', 'empty', '--admin-key', ADMIN_KEY, '--rate-limit', 'off', '--quiet']);
    const file = join(tmpdir(), `linkgate-upload-${process.pid}.json`);
    writeFileSync(file, Buffer.alloc(SIZE, 'x'));

    const node = await nodeUpload(cli.url);
    expect(node.status, node.error).toBe(413);
    expect(JSON.parse(node.body).message).toMatch(/larger than 1 MB/);

    if (has('curl')) {
      // curl sends Expect: 100-continue for a body this big: the 413 comes before the body.
      const curl = spawnSync('curl', [
        '-sS',
        '-w',
        '\n%{http_code}',
        '-X',
        'POST',
        '-H',
        `Authorization: Bearer ${ADMIN_KEY}`,
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        `@${file}`,
        `${cli.url}/api/domain/add`,
      ]);
      expect(curl.status, String(curl.stderr)).toBe(0);
      expect(String(curl.stdout)).toMatch(/larger than 1 MB[\s\S]*\n413$/);
      // Without Expect, curl uploads the whole body at once: the server reads it to the end and answers.
      const plain = spawnSync('curl', [
        ...['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', 'Expect:'],
        ...['-H', `Authorization: Bearer ${ADMIN_KEY}`, '--data-binary', `@${file}`, `${cli.url}/api/domain/add`],
      ]);
      expect(plain.status, String(plain.stderr)).toBe(0);
      expect(String(plain.stdout)).toBe('413');
    } else console.warn('curl is not installed: the curl uploads of this test were skipped');

    if (has('python3')) {
      const python = spawnSync('python3', [
        '-c',
        `import http.client, sys
c = http.client.HTTPConnection('127.0.0.1', ${new URL(cli.url).port})
c.request('POST', '/api/domain/add', body=open(sys.argv[1], 'rb').read(), headers={'Authorization': 'Bearer ${ADMIN_KEY}', 'Content-Type': 'application/json'})
print(c.getresponse().status)`,
        file,
      ]);
      expect(python.status, String(python.stderr)).toBe(0);
      expect(String(python.stdout).trim()).toBe('413');
    } else console.warn('python3 is not installed: the Python upload of this test was skipped');

    const domains = await fetch(`${cli.url}/api/domains`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect((await domains.json()).data.domains).toEqual([]);
    expect(await cli.stop()).toBe(0);
  });
});
