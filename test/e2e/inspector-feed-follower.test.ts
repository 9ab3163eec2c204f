// A tool of the user's following the inspector's feed (GET /__mock/events) as its own node process, against
// `linkgate mock` on the real clock and a receiver process that fails: the retry shows up in the feed when it is due.
import { describe, expect, it } from 'vitest';
import { describeRun, runProgram, spawnNode, startCli } from './support/processes.js';

const TOKEN = 'ctl_feed_follower_token_1';

const follower = `
const [url, receiver] = process.argv.slice(2);
const auth = { authorization: 'Bearer ${TOKEN}' };
const control = (path, body) =>
  fetch(url + path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const res = await fetch(url + '/__mock/events', { headers: auth });
console.log('status', res.status, res.headers.get('content-type'));
let started = 0;
let buffer = '';
const decoder = new TextDecoder();
for await (const chunk of res.body) {
  buffer += decoder.decode(chunk, { stream: true });
  for (let end = buffer.indexOf('\\n\\n'); end !== -1; end = buffer.indexOf('\\n\\n')) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const name = /^event: (.*)$/m.exec(block)?.[1];
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
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
}
`;

describe('a program following the inspector feed', () => {
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
