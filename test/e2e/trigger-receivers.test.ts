// `linkgate trigger` as users run it: the CLI in its own process, pointed at receivers in their own processes (the
// repo's node:http and Hono examples, and bad receivers that accept everything, hang or answer an endless body),
// asserting exit codes, output (--json parsed), what the receivers stored, and time. Loopback only.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, root, runCli, writeProgram } from './support/processes.js';

const SECRET = 'whsec_live_5e1f0c2a9b8d7e6f5a4b3c2d1e0f9a8b';

/** A receiver in its own `node` process for the whole file, with what it printed so far. */
interface Receiver {
  url: string;
  out(): string;
}

const receivers: ChildProcess[] = [];
afterAll(() => {
  for (const child of receivers) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `node --import tsx <file>` and resolves with the URL it prints as `listening … on <url>`. */
function startReceiver(file: string, env: Record<string, string> = {}): Promise<Receiver> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', WEBHOOK_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receivers.push(child);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /listening (?:for webhooks )?on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out);
      if (match) resolve({ url: match[1] as string, out: () => out });
    });
    child.on('exit', () => reject(new Error(`${file} exited before listening:\n${out}`)));
  });
}

/** Runs `linkgate trigger <args> --to <url> --secret <SECRET>`; --json output comes back parsed. */
async function trigger(url: string, args: string[]) {
  const run = await runCli(['trigger', ...args, '--to', url, '--secret', SECRET], { timeoutMs: 90_000 });
  expect(`${run.stdout}${run.stderr}`, 'the secret is never printed').not.toContain(SECRET);
  const report = args.includes('--json') && run.stdout.startsWith('{') ? JSON.parse(run.stdout) : undefined;
  return { ...run, report, details: describeRun(run) };
}

const count = (text: string, part: string) => text.split(part).length - 1;

// A receiver that accepts everything (and echoes the headers it got), one that never answers, one whose answer never
// ends: hostile peers, not our API.
const BAD_RECEIVERS = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  if (req.url === '/accept-all') {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', received: req.headers }));
    });
  } else if (req.url === '/hang') {
    req.resume();
    res.on('close', () => console.log('hang: the sender closed the connection'));
  } else if (req.url === '/endless') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      let more = true;
      while (more && sent < 256 * 1024 * 1024) {
        more = res.write(chunk);
        sent += chunk.length;
      }
    };
    res.on('drain', pump);
    res.on('close', () => console.log('endless: stopped after ' + sent + ' bytes'));
    pump();
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

describe('linkgate trigger against the node:http receiver example (examples/webhook-receiver-node.ts)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver('examples/webhook-receiver-node.ts');
  });

  it('delivers a realistic message.received that the receiver handles, and prints its status, body and time', async () => {
    const run = await trigger(receiver.url, ['message.received']);
    expect(run.code, run.details).toBe(0);
    expect(run.stdout).toMatch(/^message\.received -> http:\/\/127\.0\.0\.1:\d+\/webhooks\n/);
    expect(run.stdout).toMatch(
      / {2}answer {3}200 in \d+ ms: \{"status":"success"\}\n {2}ok {7}acknowledged with 200\n/,
    );
    await expect
      .poll(() => receiver.out(), { timeout: 15_000 })
      .toContain('device-1: message from 6281234567890: Hi! Is my order on its way?');
    expect(run.ms, 'a start, one delivery and an exit').toBeLessThan(60_000);
  });

  it('changes fields with --set, sets --device and --delivery-id, and reports one JSON document with --json', async () => {
    const run = await trigger(receiver.url, [
      'message.ack',
      '--set',
      'data.status=read',
      '--set',
      'data.status_code=3',
      '--device',
      'dev-7',
      '--delivery-id',
      'trigger-e2e-ack-1',
      '--json',
    ]);
    expect(run.code, run.details).toBe(0);
    const [delivery] = run.report.deliveries;
    expect(run.report).toMatchObject({ receiver: receiver.url, ok: true, exitCode: 0 });
    expect(delivery).toMatchObject({
      event: 'message.ack',
      check: 'delivery',
      expected: 'acknowledged',
      deliveryId: 'trigger-e2e-ack-1',
      deviceId: 'dev-7',
      headers: {
        'X-Service-Secret': '[hidden]',
        'X-Service-Delivery-ID': 'trigger-e2e-ack-1',
        'X-Service-Event': 'message.ack',
        'X-Service-Device-ID': 'dev-7',
        'User-Agent': 'linkgate-webhook-engine/2.0',
      },
      payload: { event: 'message.ack', device_id: 'dev-7', data: { status: 'read', status_code: 3 } },
      answers: [{ status: 200, body: '{"status":"success"}', bodyCut: null, error: null }],
      ok: true,
    });
    expect(Math.abs(delivery.timestamp - Date.now() / 1000)).toBeLessThan(60);
    await expect
      .poll(() => receiver.out(), { timeout: 15_000 })
      .toContain(`dev-7: ${delivery.payload.data.message_id} is read`);
  });

  it('sends the same delivery twice with --duplicate: both acknowledged, handled once by this deduping receiver', async () => {
    const handledBefore = count(receiver.out(), 'message from 6281234567890: Hi!');
    const run = await trigger(receiver.url, ['message.received', '--duplicate', '--json']);
    expect(run.code, run.details).toBe(0);
    const [delivery] = run.report.deliveries;
    expect(delivery.check).toBe('duplicate');
    expect(delivery.answers.map((a: { status: number }) => a.status)).toEqual([200, 200]);
    expect(delivery.verdict).toMatch(/whether the second was handled again does not show in the answer/);
    // The receiver logs each message it handles before answering, so both answers came after its lines.
    await expect
      .poll(() => count(receiver.out(), 'message from 6281234567890: Hi!'), { timeout: 15_000 })
      .toBe(handledBefore + 1);
  });

  it('sends one of every event stamped an hour ago with --all --stale: each is refused with 401, exit code 0', async () => {
    const before = count(receiver.out(), 'refused a delivery: stale_timestamp');
    const run = await trigger(receiver.url, ['--all', '--stale', '--json']);
    expect(run.code, run.details).toBe(0);
    expect(run.report.deliveries.map((d: { event: string }) => d.event)).toEqual([
      'message.received',
      'message.ack',
      'message.sent',
      'device.status',
      'device.qr',
    ]);
    for (const d of run.report.deliveries) {
      expect(d).toMatchObject({ check: 'stale', expected: 'refused', ok: true, answers: [{ status: 401 }] });
      expect(Date.now() / 1000 - d.timestamp).toBeGreaterThan(3500);
    }
    await expect
      .poll(() => count(receiver.out(), 'refused a delivery: stale_timestamp'), { timeout: 15_000 })
      .toBe(before + 5);
  });

  it('sends a delivery with another secret with --wrong-secret and says the receiver refused it', async () => {
    const run = await trigger(receiver.url, ['device.status', '--wrong-secret']);
    expect(run.code, run.details).toBe(0);
    expect(run.stdout).toContain('device.status -> ');
    expect(run.stdout).toContain('(wrong-secret)');
    expect(run.stdout).toMatch(/answer {3}401 in \d+ ms: .*"code":"secret_mismatch"/);
    expect(run.stdout).toContain('ok       refused with 401, as it must');
    await expect.poll(() => receiver.out(), { timeout: 15_000 }).toContain('refused a delivery: secret_mismatch');
  });

  it('refuses an invalid override with exit code 2 and sends nothing; --allow-invalid sends it, and the 400 passes', async () => {
    const refusals = count(receiver.out(), 'refused a delivery: invalid_payload');
    const refused = await trigger(receiver.url, ['message.ack', '--set', 'data.status_code=9']);
    expect(refused.code, refused.details).toBe(2);
    expect(refused.stderr).toMatch(
      /--set makes the message\.ack payload invalid: data\.status_code: .*--allow-invalid/,
    );
    expect(refused.stdout).toBe('');
    const sent = await trigger(receiver.url, [
      'message.ack',
      '--set',
      'data.status_code=9',
      '--allow-invalid',
      '--json',
    ]);
    expect(sent.code, sent.details).toBe(0);
    expect(sent.report.deliveries[0]).toMatchObject({
      check: 'invalid',
      expected: 'refused',
      ok: true,
      issues: expect.arrayContaining([expect.stringMatching(/^data\.status_code: /)]),
      answers: [{ status: 400 }],
    });
    await expect
      .poll(() => count(receiver.out(), 'refused a delivery: invalid_payload'), { timeout: 15_000 })
      .toBe(refusals + 1);
  });

  it('removes fields with --unset: a message without text is acknowledged, one without a sender refused with 400', async () => {
    const refusals = count(receiver.out(), 'refused a delivery: invalid_payload');
    const textless = await trigger(receiver.url, ['message.received', '--unset', 'data.text', '--json']);
    expect(textless.code, textless.details).toBe(0);
    expect(textless.report.deliveries[0]).toMatchObject({ check: 'delivery', ok: true, answers: [{ status: 200 }] });
    const senderless = await trigger(receiver.url, [
      'message.received',
      '--unset',
      'data.sender',
      '--allow-invalid',
      '--json',
    ]);
    expect(senderless.code, senderless.details).toBe(0);
    expect(senderless.report.deliveries[0]).toMatchObject({ check: 'invalid', ok: true, answers: [{ status: 400 }] });
    await expect
      .poll(() => count(receiver.out(), 'refused a delivery: invalid_payload'), { timeout: 15_000 })
      .toBe(refusals + 1);
  });
});

describe('linkgate trigger against the Hono receiver example (examples/webhook-receiver-hono.ts)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver('examples/webhook-receiver-hono.ts');
  });
  const stored = async () => (await (await fetch(receiver.url.replace(/\/webhooks$/, '/events'))).json()) as unknown[];

  it('sends every event of the catalog with --all: all acknowledged, the two it handles stored', async () => {
    const run = await trigger(receiver.url, ['--all', '--device', 'hono-dev', '--json']);
    expect(run.code, run.details).toBe(0);
    expect(run.report.ok).toBe(true);
    expect(run.report.deliveries.map((d: { answers: { status: number }[] }) => d.answers[0]?.status)).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(await stored()).toEqual([
      { event: 'message.received', device_id: 'hono-dev' },
      { event: 'device.status', device_id: 'hono-dev' },
    ]);
  });

  it('prints a verdict for --duplicate that claims no more than the answers show: this receiver, without dedupe, handled both', async () => {
    const before = (await stored()).length;
    const run = await trigger(receiver.url, ['message.received', '--duplicate']);
    expect(run.code, run.details).toBe(0);
    expect(run.stdout).toMatch(/answer 1 200 in \d+ ms[^\n]*\n {2}answer 2 200 in \d+ ms/);
    expect(run.stdout).toContain('check its log or store');
    expect((await stored()).length).toBe(before + 2);
  });
});

describe('linkgate trigger against bad receivers, each in its own process', () => {
  let bad: Receiver;
  let base: string;
  beforeAll(async () => {
    bad = await startReceiver(writeProgram(BAD_RECEIVERS));
    base = bad.url;
  });

  it('exits 1 and says ACCEPTED when a receiver takes a wrong-secret delivery, and hides the secret it echoes', async () => {
    const run = await trigger(`${base}/accept-all`, ['message.received', '--wrong-secret', '--json']);
    expect(run.code, run.details).toBe(1);
    const [delivery] = run.report.deliveries;
    expect(run.report).toMatchObject({ ok: false, exitCode: 1 });
    expect(delivery.verdict).toMatch(/^ACCEPTED with 200: it must refuse a delivery with the wrong X-Service-Secret/);
    expect(JSON.parse(delivery.answers[0].body).received['x-service-secret']).toBe('[secret]');
    const echoed = await trigger(`${base}/accept-all`, ['message.received']);
    expect(echoed.code, echoed.details).toBe(0);
    expect(echoed.stdout).toContain('"x-service-secret":"[secret]"');
  });

  it('exits 1 when a receiver accepts a stale delivery', async () => {
    const run = await trigger(`${base}/accept-all`, ['message.ack', '--stale']);
    expect(run.code, run.details).toBe(1);
    expect(run.stdout).toMatch(/FAILED {3}ACCEPTED with 200: it must refuse a delivery stamped an hour ago/);
  });

  it('gives up on a receiver that never answers at --timeout, exit code 1', async () => {
    const run = await trigger(`${base}/hang`, ['device.status', '--timeout', '1s', '--json']);
    expect(run.code, run.details).toBe(1);
    const [answer] = run.report.deliveries[0].answers;
    expect(answer).toMatchObject({ status: null, error: 'timeout' });
    expect(answer.ms, 'waited for the timeout').toBeGreaterThanOrEqual(990);
    expect(answer.ms, 'and no longer').toBeLessThan(5000);
    expect(run.report.deliveries[0].verdict).toBe('no answer within 1 s (--timeout)');
    await expect.poll(() => bad.out(), { timeout: 15_000 }).toContain('hang: the sender closed the connection');
  });

  it('stops reading an endless answer body past 1 MB and closes the connection, exit code 1', async () => {
    const run = await trigger(`${base}/endless`, ['message.sent', '--json']);
    expect(run.code, run.details).toBe(1);
    const [answer] = run.report.deliveries[0].answers;
    expect(answer).toMatchObject({ status: 200, bodyCut: 'size' });
    expect(answer.body.length).toBe(8 * 1024);
    expect(answer.ms, 'cut by size, long before the 8 s deadline').toBeLessThan(6000);
    expect(run.report.deliveries[0].verdict).toMatch(/^answered 200, but its body went on past 1 MB/);
    await expect.poll(() => bad.out(), { timeout: 15_000 }).toMatch(/endless: stopped after \d+ bytes/);
    const sent = /endless: stopped after (\d+) bytes/.exec(bad.out())?.[1];
    expect(Number(sent), 'the receiver stopped long before its own cap').toBeLessThan(256 * 1024 * 1024);
  });

  it('exits 1 naming the refused connection when nothing listens at --to', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const run = await trigger(`http://127.0.0.1:${port}/webhooks`, ['message.received']);
    expect(run.code, run.details).toBe(1);
    expect(run.stdout).toMatch(
      /answer {3}none after \d+ ms: connection refused \(ECONNREFUSED\): is the receiver running/,
    );
  });

  it('refuses a bad flag with exit code 2, and lists trigger in linkgate --help', async () => {
    const run = await runCli(['trigger', 'message.received', '--to', base, '--secret', SECRET, '--timeout', 'soon']);
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain('linkgate: --timeout must be a time from 1ms to 600s');
    const help = await runCli(['--help']);
    expect(help.code, describeRun(help)).toBe(0);
    expect(help.stdout).toContain('linkgate trigger <event> --to <url> --secret <secret>');
  });
});
