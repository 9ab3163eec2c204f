// A receiver mounted wrongly, in its own process: every delivery is answered 500 raw_body_required, and the
// receiver's own log says so once, not once per delivery and not never.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDelivery } from 'linkgate/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { messageReceived } from '../webhooks/support/fixtures.js';
import { root, spawnNode } from './support/processes.js';

const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';

/** node:http with a JSON body parser in front of the webhook route, as express.json() mounted first would be. */
const PARSES_JSON_FIRST = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';

const webhooks = toNodeHandler(
  createWebhookHandler({ secret: process.env.WEBHOOK_SECRET!, on: { 'message.received': () => {} } }),
);
const server = createServer(async (req, res) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  Object.assign(req, { body: JSON.parse(text) });
  void webhooks(req, res);
});
server.listen(0, '127.0.0.1', () => {
  console.log('listening for webhooks on http://127.0.0.1:' + (server.address() as AddressInfo).port + '/webhooks');
});
`;

/** Hono, reading the JSON for its own logging before handing c.req.raw over: the Request body is already used. */
const HONO_READS_FIRST = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';

const webhooks = createWebhookHandler({ secret: process.env.WEBHOOK_SECRET!, on: { 'message.received': () => {} } });
const app = new Hono();
app.post('/webhooks', async (c) => {
  console.log('event ' + (await c.req.json()).event);
  return webhooks(c.req.raw);
});
const server = createServer(toNodeHandler((request: Request) => Promise.resolve(app.fetch(request))));
server.listen(0, '127.0.0.1', () => {
  console.log('listening for webhooks on http://127.0.0.1:' + (server.address() as AddressInfo).port + '/webhooks');
});
`;

let programDir: string | undefined;
afterAll(() => {
  if (programDir) rmSync(programDir, { recursive: true, force: true });
});

function programFile(source: string): string {
  programDir ??= mkdtempSync(join(root, 'test', 'e2e', '.programs-'));
  const file = join(programDir, `receiver-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  return file;
}

describe.each([
  { name: 'node:http behind a JSON body parser', source: PARSES_JSON_FIRST, advice: /before express\.json\(\)/ },
  {
    name: 'Hono reading c.req.json() first',
    source: HONO_READS_FIRST,
    advice: /c\.req\.raw before any c\.req\.json\(\)/,
  },
])('a receiver mounted wrongly ($name)', ({ source, advice }) => {
  it('answers every delivery 500 raw_body_required and logs the set-up error once', async () => {
    const proc = spawnNode([programFile(source)], { env: { WEBHOOK_SECRET: SECRET } });
    const [, url] = await proc.printed(/listening for webhooks on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/);
    const answers: { status: number; code: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const d = createTestDelivery({ event: messageReceived, secret: SECRET });
      const response = await fetch(url as string, { method: 'POST', headers: d.headers, body: d.body });
      answers.push({ status: response.status, code: ((await response.json()) as { code: string }).code });
    }
    expect(answers).toEqual(Array(4).fill({ status: 500, code: 'raw_body_required' }));
    // Give the log a moment to reach the pipe, then end the receiver and read all it wrote.
    await new Promise((r) => setTimeout(r, 300));
    proc.child.kill('SIGTERM');
    await proc.exited;
    const lines = proc
      .err()
      .split('\n')
      .filter((line) => line.includes('set up wrongly'));
    expect(lines, proc.err()).toHaveLength(1);
    expect(lines[0]).toMatch(/raw_body_required/);
    expect(lines[0]).toMatch(advice);
    expect(proc.err()).not.toContain(SECRET);
  });
});
