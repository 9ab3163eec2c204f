// Receivers in their own process facing hostile peers: clients with no secret holding never-ending bodies, and a
// right-secret client whose body trickles forever. Real sockets, real time, loopback only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDelivery } from 'linkgate/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { messageReceived } from '../webhooks/support/fixtures.js';
import { trickle } from '../webhooks/support/hostile-client.js';
import { type NodeProcess, root, spawnNode } from './support/processes.js';

const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';

/** A user's receiver: createWebhookHandler behind toNodeHandler on node:http, with the body bound from the environment. */
const BOUNDED_RECEIVER = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';

const handler = createWebhookHandler({
  secret: process.env.WEBHOOK_SECRET!,
  bodyTimeoutMs: Number(process.env.BODY_TIMEOUT_MS),
  on: { 'message.received': (event) => console.log('received ' + event.data.message_id) },
});
const listener = toNodeHandler(handler);
const server = createServer((req, res) => void listener(req, res));
server.listen(0, '127.0.0.1', () => {
  console.log('listening for webhooks on http://127.0.0.1:' + (server.address() as AddressInfo).port + '/webhooks');
});
`;

let programDir: string | undefined;
afterAll(() => {
  if (programDir) rmSync(programDir, { recursive: true, force: true });
});

/** Starts a receiver (an example file, or program source) in its own process; resolves with its webhook URL. */
async function startReceiver(
  program: { file: string } | { source: string },
  env: Record<string, string> = {},
): Promise<{ proc: NodeProcess; url: string }> {
  let file: string;
  if ('file' in program) file = program.file;
  else {
    programDir ??= mkdtempSync(join(root, 'test', 'e2e', '.programs-'));
    file = join(programDir, `receiver-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(file, program.source);
  }
  const proc = spawnNode([file], { env: { WEBHOOK_SECRET: SECRET, PORT: '0', ...env } });
  const [, url] = await proc.printed(/listening for webhooks on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/);
  return { proc, url: url as string };
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN) / 1024;
}

function headersWithoutSecret(): Record<string, string> {
  const { 'X-Service-Secret': _secret, ...headers } = createTestDelivery({
    event: messageReceived,
    secret: SECRET,
  }).headers;
  return headers;
}

describe.each([
  { name: 'examples/webhook-receiver-node.ts', file: 'examples/webhook-receiver-node.ts' },
  {
    name: 'examples/webhook-receiver-hono.ts (the Request path, behind Hono)',
    file: 'examples/webhook-receiver-hono.ts',
  },
])('$name facing a client with no secret and a never-ending body', ({ file }) => {
  it('answers 401 at once and does not hold the connection', async () => {
    const { proc, url } = await startReceiver({ file });
    const client = trickle(url, headersWithoutSecret(), { chunkBytes: 1024, everyMs: 20, burstBytes: 256 * 1024 });
    const answer = await client.answered;
    expect(answer.status, proc.err()).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'missing_secret_header' });
    expect(answer.ms).toBeLessThan(5000); // at once: the body never ends
    // The rest of the body is let flow to nowhere for 1 s, so the client can read its 401, then the receiver cuts it.
    const closedAt = await Promise.race([client.closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    client.stop();
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - answer.ms).toBeLessThan(8000);
  });
});

describe('a receiver facing 300 clients with no secret, each holding about 1 MB of body', () => {
  it('answers each 401, cuts them all off, and its memory does not grow by a megabyte each', async () => {
    const { proc, url } = await startReceiver({ file: 'examples/webhook-receiver-node.ts' });
    const pid = proc.child.pid as number;
    // Warm up: one real delivery, so the baseline includes the loaded handler.
    const d = createTestDelivery({ event: messageReceived, secret: SECRET });
    expect((await fetch(url, { method: 'POST', headers: d.headers, body: d.body })).status).toBe(200);
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 50);
    const started = performance.now();
    const clients = Array.from({ length: 300 }, () =>
      trickle(url, headersWithoutSecret(), { chunkBytes: 64 * 1024, everyMs: 250, burstBytes: 960 * 1024 }),
    );
    try {
      const answers = await Promise.all(clients.map((c) => c.answered.catch((e: Error) => ({ status: e.message }))));
      const closed = await Promise.race([
        Promise.all(clients.map((c) => c.closed)),
        new Promise<null>((r) => setTimeout(() => r(null), 20_000)),
      ]);
      // Keep sampling a little after the last close: buffers would show up now if anything were holding them.
      await new Promise((r) => setTimeout(r, 500));
      clearInterval(sampler);
      const growth = peak - baseline;
      const summary = `baseline ${baseline.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${Math.round(performance.now() - started)} ms`;
      // Buffering ~1 MB per connection adds hundreds of MB; what remains is sockets and garbage not yet collected.
      expect(growth, summary).toBeLessThan(120);
      const others = answers.filter((a) => a.status !== 401);
      expect(others.length, `${summary}; not 401: ${JSON.stringify(others.slice(0, 3))}`).toBe(0);
      expect(closed, `connections still held; ${summary}`).not.toBeNull();
    } finally {
      clearInterval(sampler);
      for (const c of clients) c.stop();
    }
  });
});

describe('a receiver facing a right-secret client whose body trickles forever', () => {
  it('cuts it off with 408 after bodyTimeoutMs and closes the connection', async () => {
    const { proc, url } = await startReceiver({ source: BOUNDED_RECEIVER }, { BODY_TIMEOUT_MS: '1500' });
    const d = createTestDelivery({ event: messageReceived, secret: SECRET });
    const client = trickle(url, d.headers, { chunkBytes: 8, everyMs: 50 });
    const answer = await client.answered;
    expect(answer.status, proc.err()).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_timeout' });
    expect(answer.ms).toBeGreaterThanOrEqual(1450);
    expect(answer.ms).toBeLessThan(6000); // below the 8 s default, with slack for a loaded machine
    const closedAt = await Promise.race([client.closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    client.stop();
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - answer.ms).toBeLessThan(8000);
    // The receiver stays up and serves the next delivery.
    const next = createTestDelivery({ event: messageReceived, secret: SECRET });
    expect((await fetch(url, { method: 'POST', headers: next.headers, body: next.body })).status).toBe(200);
    await proc.printed(/received 3EB0C767D26A1D5A9F3B/);
  });
});
