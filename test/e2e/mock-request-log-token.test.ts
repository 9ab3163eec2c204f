// `linkgate mock`'s request log never prints the control token, wherever in the request target a client puts it:
// the path, percent-encoded (`/%23token=`, each character as `%XX`), an absolute-form target, the query, the fragment.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';

const TOKEN = `ctl_${'7a'.repeat(16)}`;

/** Sends a hand-written request line over a raw socket and resolves with the status line of the answer. */
function rawRequest(url: string, target: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${target}`)));
  });
}

/** Every character as `%XX`. */
const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

describe('linkgate mock request log and the control token', () => {
  it('prints none of it from the path, percent-encoded or not, an absolute-form target, the query or the fragment', async () => {
    const cli = await startCli(['--control-token', TOKEN]);
    const targets = [
      `/%23token=${TOKEN}`,
      `/__mock/${TOKEN}`,
      `/__mock/${encodeAll(TOKEN)}`,
      `/api/%2523token%3D${TOKEN.slice(0, 4)}${encodeAll(TOKEN.slice(4))}`,
      `/%252523token=${encodeAll(encodeAll(TOKEN))}`,
      `${cli.url}/__mock/${TOKEN}`,
      `/openapi.json?token=${TOKEN}`,
      `/#token=${TOKEN}`,
    ];
    for (const target of targets) expect(await rawRequest(cli.url, target)).toMatch(/^HTTP\/1\.1 /);
    await rawRequest(cli.url, '/openapi.json?last');
    await cli.printed(/GET \/openapi\.json 200 .*\n(.|\n)*GET \/openapi\.json 200 /);
    const log = cli.out().slice(cli.out().indexOf('Stop with Ctrl+C.'));
    expect(log.match(/^.*GET .*$/gm)).toHaveLength(targets.length + 1);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(encodeAll(TOKEN));
    expect(log).not.toContain(TOKEN.slice(4));
    expect(log).toContain('GET /__mock/[hidden] ');
    await cli.stop();
  });
});
