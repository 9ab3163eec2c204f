// `linkgate mock`'s request log as users run it: the CLI's server in its own process, read from its output.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';

const TOKEN = `ctl_${'5e'.repeat(16)}`;

/** Sends a hand-written request line over a raw socket and resolves with the status line of the answer. */
function rawRequest(url: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${requestLine}`)));
  });
}

describe('linkgate mock request log', () => {
  it('never prints a control token sent in the fragment of a hand-written request line', async () => {
    const cli = await startCli(['--control-token', TOKEN]);
    const targets = [`/#token=${TOKEN}`, `/__mock/events#token=${TOKEN}`, `/openapi.json?x=1#token=${TOKEN}`];
    for (const target of targets) expect(await rawRequest(cli.url, `GET ${target} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 /);
    await cli.printed(/GET \/openapi\.json \d{3}/);
    const log = cli.out().slice(cli.out().indexOf('Stop with Ctrl+C.'));
    expect(log).toMatch(/GET \/ \d{3}/);
    expect(log).toMatch(/GET \/__mock\/events \d{3}/);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain('#');
    await cli.stop();
  });

  it('never prints a control token in the path, percent-encoded or not, or in an absolute-form target', async () => {
    const cli = await startCli(['--control-token', TOKEN]);
    // Every character as `%XX`.
    const encodeAll = (text: string) =>
      [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const targets = [
      `/%23token=${TOKEN}`,
      `/__mock/${TOKEN}`,
      `/__mock/${encodeAll(TOKEN)}`,
      `/api/%2523token%3D${TOKEN.slice(0, 4)}${encodeAll(TOKEN.slice(4))}`,
      `/%252523token=${encodeAll(encodeAll(TOKEN))}`,
      `${cli.url}/__mock/${TOKEN}`,
    ];
    for (const target of targets) expect(await rawRequest(cli.url, `GET ${target} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 /);
    await rawRequest(cli.url, 'GET /openapi.json?last HTTP/1.1');
    await cli.printed(/GET \/openapi\.json 200 /);
    const log = cli.out().slice(cli.out().indexOf('Stop with Ctrl+C.'));
    expect(log.match(/^.* GET .*$/gm)).toHaveLength(targets.length + 1);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(TOKEN.slice(4));
    expect(log).not.toContain(encodeAll(TOKEN));
    expect(log).toContain('GET /__mock/[hidden] ');
    await cli.stop();
  });
});

describe('linkgate mock request log at exit', () => {
  it('prints the line of every request answered before SIGTERM, none lost to the batching of writes', async () => {
    const cli = await startCli([]);
    const total = 300;
    let sent = 0;
    // 30 clients, each sending its next request when its last one is answered.
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        while (sent < total) {
          sent++;
          const res = await fetch(`${cli.url}/openapi.json`);
          await res.arrayBuffer();
        }
      }),
    );
    // Stopped right after the last answer: its line may still be waiting for the next write.
    expect(await cli.stop()).toBe(0);
    const lines = cli
      .out()
      .split('\n')
      .filter((line) => / GET \/openapi\.json 200 /.test(line));
    expect(lines).toHaveLength(total);
  });
});
