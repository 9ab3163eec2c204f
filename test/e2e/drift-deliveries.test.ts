// `linkgate proxy --receiver` as users run it: linkgate mock delivers webhooks through the proxy (its own process) to a
// receiver in its own process that fails the first attempt, so the gateway retries it. With --variant
// perAttemptDeliveryIds the retry carries a new delivery id and the proxy names the variant; on the plain mock the id
// is kept and the variant is reported not matched. Every delivery is checked against the headers and event schemas of
// the spec, and the webhook secret never appears in the output or the report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlApi, startReceiverProcess } from './support/gateway-control.js';
import { describeRun, type NodeProcess, runCli, spawnNode, startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-drift-deliveries';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-deliveries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Answers 500 to the first delivery and 200 to every other; prints each delivery's id. */
const FAIL_FIRST_RECEIVER = `
import { createServer } from 'node:http';
let n = 0;
const server = createServer((req, res) => {
  const i = n++;
  req.resume();
  req.on('end', () => {
    console.log('delivery ' + i + ' ' + req.url + ' ' + req.headers['x-service-delivery-id']);
    res.writeHead(i === 0 ? 500 : 200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/hooks'));
`;

/** Starts `linkgate proxy --receiver <url> --port 0 <args>` and resolves with its URL once it listens. */
async function startReceiverProxy(receiver: string, args: string[]): Promise<NodeProcess & { url: string }> {
  const proc = spawnNode(['mock/cli.ts', 'proxy', '--receiver', receiver, '--port', '0', ...args]);
  const [, url] = await proc.printed(/linkgate proxy listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...proc, url: url as string };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * One event through the proxy to a receiver that fails its first attempt, retried once on the mock's manual clock;
 * resolves with the proxy's output, its NDJSON report, the receiver's log and the webhook secret.
 */
async function deliverThroughProxy(mockFlags: string[]) {
  const mock = await startCli([
    '--clock',
    'manual',
    '--control-token',
    TOKEN,
    '--quiet',
    '--device',
    'phone-1',
    ...mockFlags,
  ]);
  const receiver = await startReceiverProcess(FAIL_FIRST_RECEIVER);
  const report = join(dir, `report-${mockFlags.length}.ndjson`);
  const proxy = await startReceiverProxy(receiver.url, ['--report', report]);
  const control = controlApi(mock.url, TOKEN);
  const attached = await control.post('webhooks', { url: proxy.url });
  expect(attached.status).toBe(201);
  const listed = await control.get('webhooks?redact=0');
  const secret = JSON.stringify(listed.body).match(/whsec_live_[0-9a-f]{32}/)?.[0];
  expect(secret).toBeDefined();

  expect((await control.post('simulate/message', { device_id: 'phone-1', sender: '15551234567' })).status).toBe(200);
  const outcomes = async () =>
    ((await control.get('attempts')).body.attempts as { outcome: string }[]).map((a) => a.outcome);
  await until(async () => (await outcomes()).includes('failed'), 'the first attempt to fail');
  // The retry falls due 3 s later on the schedule: the manual clock gets there at once.
  await control.post('clock/advance', { ms: 3_000 });
  await until(async () => (await outcomes()).includes('delivered'), 'the retry to be delivered');
  proxy.child.kill('SIGTERM');
  const ended = await proxy.exited;
  return {
    ended,
    out: proxy.out() + proxy.err(),
    report: readFileSync(report, 'utf8'),
    receiver: receiver.proc.out(),
    secret: secret as string,
  };
}

/** The attempts the receiver logged at its own path (/hooks), and how many delivery ids they carried. */
function receivedIds(log: string): { attempts: number; distinct: number } {
  const ids = [...log.matchAll(/^delivery \d+ \/hooks (\S+)$/gm)].map((m) => m[1]);
  return { attempts: ids.length, distinct: new Set(ids).size };
}

describe('linkgate proxy --receiver: webhook deliveries checked on their way to a receiver', {
  timeout: 60_000,
}, () => {
  it('names perAttemptDeliveryIds when the retry of an event carries a new delivery id', async () => {
    const run = await deliverThroughProxy(['--variant', 'perAttemptDeliveryIds']);
    expect(run.ended.code, run.out).toBe(0);
    // The receiver got both attempts at its own path, with two different ids.
    expect(receivedIds(run.receiver)).toEqual({ attempts: 2, distinct: 2 });
    expect(run.out).toContain(
      'Webhook deliveries: 2; events delivered more than once: 1 (kept their delivery id: 0, changed it: 1)',
    );
    expect(run.out).toContain(
      'perAttemptDeliveryIds: matched (message.received of device phone-1: 2 attempts, 2 delivery ids)',
    );
    expect(run.out).toContain('Production variants matched: perAttemptDeliveryIds');
    // Both deliveries matched the spec's headers and the event's schema.
    expect(run.out).toMatch(/webhook message\.received\s+2\s+2\s+none/);
    expect(run.out).toContain('No drift found.');
    const summary = JSON.parse(run.report.trim().split('\n').at(-1) as string);
    expect(summary).toMatchObject({
      type: 'summary',
      variants: ['perAttemptDeliveryIds'],
      deliveryIds: { changedId: 1 },
    });
    expect(run.out + run.report).not.toContain(run.secret);
  });

  it('reports perAttemptDeliveryIds not matched when the retry keeps its delivery id (the plain mock)', async () => {
    const run = await deliverThroughProxy([]);
    expect(run.ended.code, run.out).toBe(0);
    expect(receivedIds(run.receiver)).toEqual({ attempts: 2, distinct: 1 });
    expect(run.out).toContain(
      'Webhook deliveries: 2; events delivered more than once: 1 (kept their delivery id: 1, changed it: 0)',
    );
    expect(run.out).toContain(
      'perAttemptDeliveryIds: not matched (retried events kept their delivery id, as the API documents)',
    );
    expect(run.out).not.toContain('Production variants matched');
    expect(run.out).toContain('No drift found.');
    expect(run.out + run.report).not.toContain(run.secret);
  });

  it('refuses --upstream with --receiver, and --header-prefix without --receiver, naming the flags (exit 2)', async () => {
    const [both, prefix] = await Promise.all([
      runCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--receiver', 'http://127.0.0.1:2/hooks']),
      runCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--header-prefix', 'X-Acme-']),
    ]);
    expect(both.code, describeRun(both)).toBe(2);
    expect(both.stderr).toContain('--upstream and --receiver cannot both be given');
    expect(prefix.code, describeRun(prefix)).toBe(2);
    expect(prefix.stderr).toContain(
      "--header-prefix goes with --receiver: it is the webhook deliveries' header prefix.",
    );
  });
});
