// Part `fixture`: one large fixture (23,000 users, just under the 1 MiB body limit; 5,000 at CI size) sent to
// `linkgate mock` in its own process, while another client keeps asking for `/openapi.json`: how long the fixture
// takes to answer, and the longest the other client waited meanwhile (issue 21: 25.8 s and 25.3 s before the fix).
import { request } from 'node:http';
import { MAX_BODY_BYTES } from '../../mock/http/body-limit.js';
import { startCli } from './load-run.js';
import type { PartOptions, PartReport } from './report.js';

/** What a 23,000-user fixture and a request sent meanwhile may take, each (issue 21: under 1 s on a quiet machine). */
export const FIXTURE_ANSWER_BOUND_MS = 1_000;

/** Sends the fixture to a fresh `linkgate mock` while polling another endpoint, and reports both timings. */
export async function fixtureLoad(options: PartOptions = {}): Promise<PartReport> {
  const users = options.size === 'ci' ? 5_000 : 23_000;
  const body = JSON.stringify({
    users: Array.from({ length: users }, (_, i) => {
      const username = `u${String(i).padStart(5, '0')}`;
      return { username, email: `${username}@a.io` };
    }),
  });
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new Error(`the fixture is over the body limit (${body.length})`);
  const { child, url, banner } = await startCli();
  try {
    const token = /Control API: \S+ lists its endpoints; token (\S+)/.exec(banner)![1]!;
    // The other client: one request at a time, each timed, until the fixture is answered.
    const waits: number[] = [];
    let done = false;
    const poller = (async () => {
      while (!done) {
        const started = performance.now();
        await send(`${url}/openapi.json`, 'GET');
        waits.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    const answer = await send(`${url}/__mock/fixture`, 'POST', body, { authorization: `Bearer ${token}` });
    const fixtureMs = performance.now() - started;
    done = true;
    await poller;
    if (answer.status !== 201)
      throw new Error(`the fixture was answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const slowest = Math.max(...waits);
    return {
      part: `fixture load (${users.toLocaleString('en-US')} users in one POST /__mock/fixture, ${Buffer.byteLength(body).toLocaleString('en-US')} bytes, to linkgate mock in its own process)`,
      figures: {
        'requests sent': waits.length + 1,
        'fixture answered (201) after': `${fixtureMs.toFixed(0)} ms`,
        'GET /openapi.json meanwhile': `${waits.length} answered, slowest ${slowest.toFixed(0)} ms`,
      },
      checks: [
        { name: 'time to answer the fixture', value: fixtureMs, max: FIXTURE_ANSWER_BOUND_MS, unit: 'ms' },
        { name: 'longest wait of another client meanwhile', value: slowest, max: FIXTURE_ANSWER_BOUND_MS, unit: 'ms' },
      ],
    };
  } finally {
    child.kill('SIGTERM');
  }
}

function send(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
