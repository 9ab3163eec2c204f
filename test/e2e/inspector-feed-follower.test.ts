// A tool of the user's following the inspector's feed (GET /__mock/events) as its own node process, against
// `linkgate mock` on the real clock and a receiver process that fails: the retry shows up in the feed when it is due.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeRun, runProgram, spawnNode, startCli } from './support/processes.js';

const TOKEN = 'ctl_feed_follower_token_1';

// What both programs below start with: the feed's server-sent events, one { name, data } at a time.
const readEvents = `
async function* events(body) {
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\\n\\n'); end !== -1; end = buffer.indexOf('\\n\\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      yield { name: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') };
    }
  }
}
`;

const follower = `${readEvents}
const [url, receiver] = process.argv.slice(2);
const auth = { authorization: 'Bearer ${TOKEN}' };
const control = (path, body) =>
  fetch(url + path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const res = await fetch(url + '/__mock/events', { headers: auth });
console.log('status', res.status, res.headers.get('content-type'));
let started = 0;
for await (const { name, data } of events(res.body)) {
  if (name === 'snapshot') {
    console.log('snapshot', data.clock.kind);
    await control('/__mock/webhooks', { url: receiver + '/hooks' });
    started = performance.now();
    await control('/__mock/simulate/message', { device_id: 'dev_a', sender: '15551234567', text: 'hi' });
  }
  if (name === 'attempt') {
    console.log('attempt', data.attempt, data.status, data.outcome, Math.round(performance.now() - started));
    if (data.attempt === 2) process.exit(0);
  }
}
`;

const ADMIN = 'admin_follower_key_0123456789abcdef';

// Opens 200 feeds (50 of which never read past their first bytes) and one that keeps the data section in step from
// the snapshot and its data-changes; adds 100 domains and deletes 10 while timing an unrelated GET; prints a summary.
const crowd = `${readEvents}
import { connect } from 'node:net';
const [url] = process.argv.slice(2);
const { port } = new URL(url);
const api = { authorization: 'Bearer ${ADMIN}', 'content-type': 'application/json' };
const sockets = [];
let opened = 0;
for (let i = 0; i < 200; i++) {
  const socket = connect(Number(port), '127.0.0.1');
  socket.write('GET /__mock/events HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer ${TOKEN}\\r\\n\\r\\n');
  socket.once('data', () => { opened++; if (i < 50) socket.pause(); });
  if (i >= 50) socket.on('data', () => {});
  sockets.push(socket);
}
const res = await fetch(url + '/__mock/events', { headers: { authorization: 'Bearer ${TOKEN}' } });
let domains;
let changes = 0;
void (async () => {
  for await (const { name, data } of events(res.body)) {
    if (name === 'snapshot') domains = new Map(data.data.domains.map((d) => [d.id, d]));
    if (name === 'data-changes' && data.domains) {
      changes++;
      for (const id of data.domains.removed) domains.delete(id);
      for (const d of data.domains.set) domains.set(d.id, d);
    }
  }
})();
while (opened < 200 || !domains) await new Promise((r) => setTimeout(r, 20));
console.log('feeds open', opened + 1);
const gets = [];
let writing = true;
const getter = (async () => {
  while (writing) {
    const t = performance.now();
    await (await fetch(url + '/api/plans', { headers: api })).arrayBuffer();
    gets.push(performance.now() - t);
  }
})();
const ids = [];
for (let i = 0; i < 100; i++) {
  const r = await fetch(url + '/api/domain/add', { method: 'POST', headers: api, body: JSON.stringify({ domain: 'https://f' + i + '.follower.example' }) });
  ids.push((await r.json()).id);
}
for (const id of ids.slice(0, 10)) await fetch(url + '/api/domain/' + id + '/delete', { method: 'DELETE', headers: api });
writing = false;
await getter;
const deadline = performance.now() + 10_000;
while (performance.now() < deadline && [...domains.values()].filter((d) => d.domain.endsWith('.follower.example')).length !== 90) await new Promise((r) => setTimeout(r, 20));
gets.sort((a, b) => a - b);
console.log(JSON.stringify({
  followed: [...domains.values()].map((d) => d.domain).sort(),
  changes,
  getP99: Math.round(gets[Math.floor(gets.length * 0.99)]),
}));
for (const s of sockets) s.destroy();
process.exit(0);
`;

/** The server process's resident memory, in MB (Linux). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

describe('a program following the inspector feed', () => {
  it('keeps 201 feeds, 50 of them never reading, from slowing the server: a follower rebuilds the data from data-changes, the memory stays bounded, the server stops at once', async () => {
    const cli = await startCli(['--control-token', TOKEN, '--admin-key', ADMIN, '--rate-limit', 'off', '--quiet']);
    try {
      const before = rssMb(cli.child.pid!);
      const result = await runProgram({ source: crowd }, { args: [cli.url], timeoutMs: 60_000 });
      expect(result.code, describeRun(result)).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).toBe('feeds open 201');
      const summary = JSON.parse(lines[1]!);
      // What the follower rebuilt from the snapshot and the changes: the 100 domains added, less the 10 deleted.
      const followed = summary.followed.filter((d: string) => d.endsWith('.follower.example'));
      expect(followed).toEqual(Array.from({ length: 90 }, (_, i) => `https://f${i + 10}.follower.example`).sort());
      expect(summary.changes).toBeGreaterThan(0);
      // Generous: on a quiet machine it is a few ms; sending the whole data section to every feed made it hundreds.
      expect(summary.getP99, describeRun(result)).toBeLessThan(500);
      expect(rssMb(cli.child.pid!) - before).toBeLessThan(150);
      const stopping = performance.now();
      expect(await cli.stop()).toBe(0);
      expect(performance.now() - stopping).toBeLessThan(3_000);
    } finally {
      if (cli.child.exitCode === null) await cli.stop();
    }
  }, 90_000);

  it('sees the first attempt fail at once and the retry when it is due on the real clock, then exits', async () => {
    const cli = await startCli(['--control-token', TOKEN, '--device', 'dev_a']);
    const rx = spawnNode(['test/browser/inspector-receiver.mjs']);
    try {
      const [, receiver] = await rx.printed(/receiver listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const result = await runProgram({ source: follower }, { args: [cli.url, receiver!], timeoutMs: 90_000 });
      expect(result.code, describeRun(result)).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines.slice(0, 2)).toEqual(['status 200 text/event-stream; charset=utf-8', 'snapshot real']);
      const attempts = lines.filter((l) => l.startsWith('attempt')).map((l) => l.split(' '));
      expect(attempts.map(([, n, status, outcome]) => [n, status, outcome])).toEqual([
        ['1', '503', 'failed'],
        ['2', '503', 'failed'],
      ]);
      // The first retry waits 3 s plus up to 1 s of jitter on the real clock.
      const retryMs = Number(attempts[1]![4]);
      expect(retryMs, describeRun(result)).toBeGreaterThanOrEqual(2_900);
      expect(retryMs, describeRun(result)).toBeLessThan(12_000);
      expect(result.ms, describeRun(result)).toBeLessThan(60_000); // exits once it has seen the retry
      // The server is still answering after its reader went away.
      expect((await fetch(`${cli.url}/__mock/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      rx.child.kill('SIGTERM');
      expect(await cli.stop()).toBe(0);
    }
  });
});
