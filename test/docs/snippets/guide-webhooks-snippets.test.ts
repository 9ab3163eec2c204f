// The webhooks guide's snippets (docs/guides/webhooks.md) as users run them: each receiver snippet is served by its
// own `node` process and receives the deliveries of the CLI's gateway in real time (retries after a 5xx, duplicated
// and forged deliveries included); the testing snippet runs as a program of its own.
import { describe, expect, it } from 'vitest';
import { controlApi } from '../../e2e/support/gateway-control.js';
import {
  type CliServer,
  describeRun,
  runProgram,
  spawnNode,
  startCli,
  writeProgram,
} from '../../e2e/support/processes.js';
import { adapt, readmeSnippet } from '../../package/support/newcomer-project.js';

const GUIDE = 'docs/guides/webhooks.md';
const TOKEN = 'ctl-e2e-guide-webhooks';
const SECRET = `whsec_live_${'7'.repeat(32)}`;
const DEVICE = 'phone-1';

const threeLines = readmeSnippet('A handler in three lines', 0, GUIDE);
const nodeAndExpress = readmeSnippet('Node and Express', 0, GUIDE);
const withoutRouter = readmeSnippet('Verifying without the router', 0, GUIDE);
const testingReceiver = readmeSnippet('Testing a receiver', 0, GUIDE);
const secrets = readmeSnippet('Secrets: rotation and devices', 0, GUIDE);

/** The app's own `saveMessage`, which the snippets call: it prints what it saved. */
const APP = `const saveMessage = async (data: { sender: string; text?: string; message_id: string }) =>
  console.log('saved ' + data.message_id + ' from ' + data.sender + ': ' + data.text);
`;
/** The same, but its first call fails (the database was briefly down), so the gateway has to retry. */
const FLAKY_APP = `let saves = 0;
const saveMessage = async (data: { sender: string; text?: string }) => {
  if (++saves === 1) throw new Error('database unavailable');
  console.log('saved ' + data.sender + ': ' + data.text);
};
`;
/** The guide's `secret` and `on`, which its Node snippet takes as given. */
const SECRET_AND_ON = `const secret = process.env.WEBHOOK_SECRET!;
const on = { 'message.received': (event: { data: { text?: string } }) => console.log('received ' + event.data.text) };
`;

/** Serves `handler` (a `(Request) => Promise<Response>`) on node:http at a free port and prints its URL. */
const serve = (handler: string) => `
import { createServer as serveOn } from 'node:http';
import { toNodeHandler as nodeAdapter } from 'linkgate/webhooks';
const receiver = serveOn(nodeAdapter(${handler}));
receiver.listen(0, '127.0.0.1', () =>
  console.log('listening on http://127.0.0.1:' + (receiver.address() as import('node:net').AddressInfo).port + '/webhooks'),
);
`;

/** Starts a receiver program in its own process, and the CLI's gateway delivering to it. */
async function receiverAndGateway(source: string) {
  const cli = await startCli(['--seed', 'empty', '--control-token', TOKEN, '--device', DEVICE]);
  const receiver = spawnNode([writeProgram(source)], { env: { WEBHOOK_SECRET: SECRET } });
  const [, url] = await receiver.printed(/listening on (http:\/\/\S+)/);
  const control = controlApi(cli.url, TOKEN);
  expect((await control.post('webhooks', { url, secret: SECRET })).status).toBe(201);
  return { cli, receiver, control };
}

/** The gateway's attempts in the order they were made, each with its delivery id and a `<event> <status> <outcome>` row. */
async function attempts(control: ReturnType<typeof controlApi>) {
  const list = (await control.get('attempts?redact=1')).body.attempts as {
    deliveryId: string;
    event: string;
    outcome: string;
    response: { status: number } | null;
  }[];
  return list.map((a) => ({ id: a.deliveryId, row: `${a.event} ${a.response?.status ?? 'none'} ${a.outcome}` }));
}

/** The CLI's activity lines for delivery attempts. */
const deliveryLines = (cli: CliServer) => cli.out().match(/^\S+ delivery \S+ \S+ attempt \d+ .*$/gm) ?? [];

describe('docs/guides/webhooks.md snippets, each in its own node process', () => {
  it('has the snippets the tests read', () => {
    expect(threeLines).toContain('export const POST = createWebhookHandler({');
    expect(threeLines).toContain('dedupe: new MemoryDedupeStore()');
    expect(threeLines).toContain("'message.received': async (event) => saveMessage(event.data)");
    expect(threeLines).toContain("'device.status': (event) => console.log(event.device_id, event.data.status)");
    expect(withoutRouter).toContain('export async function POST(request: Request): Promise<Response> {');
    expect(testingReceiver).toContain('const response = await handler(delivery.request);');
  });

  it('the handler in three lines: a 500 from a failing save is retried 3 s later and saved once; a duplicate is acknowledged, not handled', async () => {
    const started = performance.now();
    const { cli, receiver, control } = await receiverAndGateway(FLAKY_APP + threeLines + serve('POST'));

    const sent = performance.now();
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'first' });
    await cli.printed(/delivery message\.received \S+ attempt 2 to \S+: 200, delivered/);
    // The gateway waits 3 s (plus up to 1 s of jitter) after a failed attempt.
    expect(performance.now() - sent).toBeGreaterThanOrEqual(2_900);
    expect(performance.now() - sent).toBeLessThan(12_000);

    expect((await control.post('faults', { duplicate: true })).status).toBe(200);
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'second' });
    await control.post('simulate/status', { device_id: DEVICE, status: 'OFFLINE', reason: 'battery' });
    await receiver.printed(new RegExp(`^${DEVICE} OFFLINE$`, 'm'));
    expect((await control.post('drain')).body).toMatchObject({ ok: true });

    // Per delivery id, in order: the retry and the duplicate carry the id of the attempt they repeat.
    const byDelivery = new Map<string, string[]>();
    for (const a of await attempts(control)) byDelivery.set(a.id, [...(byDelivery.get(a.id) ?? []), a.row]);
    expect([...byDelivery.values()].map((rows) => rows.join(', ')).sort()).toEqual([
      'device.status 200 delivered',
      'message.received 200 delivered, message.received 200 delivered',
      'message.received 500 failed, message.received 200 delivered',
    ]);
    expect((await control.get('dead-letters')).body.items).toEqual([]);

    // Saved once each: the failed first attempt released its id, the duplicate found it claimed.
    expect(receiver.out().match(/^saved .*$/gm)).toEqual(['saved 15551234567: first', 'saved 15551234567: second']);
    expect(receiver.err()).toContain('database unavailable');
    // The CLI prints its activity in batches (every 10 ms): wait, bounded, for the lines of what drained.
    await expect.poll(() => deliveryLines(cli).length, { timeout: 15_000 }).toBe(5);

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(90_000); // no wait left running; processes start slowly under load
  });

  it('Node and Express: the node:http receiver acknowledges deliveries and refuses a stale one, which is dead-lettered at once', async () => {
    const source =
      SECRET_AND_ON +
      adapt(
        adapt(
          nodeAndExpress,
          'createServer(toNodeHandler(handler)).listen(3000); // node:http',
          "const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + (server.address() as import('node:net').AddressInfo).port + '/webhooks'));",
        ),
        // Express is not a dependency here; the node:http line serves the same handler.
        "app.post('/webhooks', toNodeHandler(handler)); // Express: mount before express.json(), or use express.raw()",
        '',
      );
    const { cli, receiver, control } = await receiverAndGateway(source);

    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'hello' });
    await receiver.printed(/^received hello$/m);
    expect((await control.post('faults', { staleTimestamp: true })).status).toBe(200);
    await control.post('simulate/message', {
      device_id: DEVICE,
      sender: '15551234567',
      text: 'replayed by an attacker',
    });
    await cli.printed(/dead letter message\.received \S+ to \S+: .* after 1 attempt\(s\), last 401/);
    expect((await control.post('drain')).body).toMatchObject({ ok: true });

    expect((await attempts(control)).map((a) => a.row)).toEqual([
      'message.received 200 delivered',
      'message.received 401 rejected',
    ]);
    expect(receiver.out()).not.toContain('replayed by an attacker');

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
  });

  it('verifying without the router: a verified delivery is saved, one with a wrong secret is answered 401 and dead-lettered', async () => {
    const source = `${SECRET_AND_ON}${APP}
${withoutRouter}${serve('POST')}`;
    const { cli, receiver, control } = await receiverAndGateway(source);

    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'hello' });
    await receiver.printed(/^saved \S+ from 15551234567: hello$/m);
    expect((await control.post('faults', { wrongSecret: true })).status).toBe(200);
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'forged' });
    await cli.printed(/dead letter message\.received \S+ to \S+: .* after 1 attempt\(s\), last 401/);

    expect((await attempts(control)).map((a) => a.row)).toEqual([
      'message.received 200 delivered',
      'message.received 401 rejected',
    ]);
    expect(receiver.out()).not.toContain('forged');

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
  });

  it('secrets: the rotating receiver accepts the old and the new secret; the device-aware one the tenant and the device secret', async () => {
    const OLD = `whsec_live_${'a'.repeat(32)}`;
    const NEW = `whsec_live_${'b'.repeat(32)}`;
    const DEVICE_SECRET = `whsec_dev_${'c'.repeat(32)}`;
    // Only the placeholder secrets are filled in; each handler is kept and served on a port of its own.
    let program = adapt(secrets, "'whsec_live_<new>', 'whsec_live_<old>'", `'${NEW}', '${OLD}'`);
    program = adapt(program, "'whsec_live_<…>'", `'${SECRET}'`);
    program = adapt(program, "dev_1: 'whsec_dev_<…>'", `dev_1: '${DEVICE_SECRET}'`);
    program = adapt(program, 'createWebhookHandler({ secret: [', 'const rotating = createWebhookHandler({ secret: [');
    program = adapt(
      program,
      'createWebhookHandler({\n  // A device',
      'const perDevice = createWebhookHandler({\n  // A device',
    );
    const source = `import { createServer } from 'node:http';
import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';
const on = {
  'message.received': (event: { device_id: string; data: { text?: string } }) =>
    console.log(event.device_id + ' said ' + event.data.text),
};
${program}
for (const [name, handler] of [['rotating', rotating], ['per-device', perDevice]] as const) {
  const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1', () =>
    console.log(name + ' listening on http://127.0.0.1:' + (server.address() as import('node:net').AddressInfo).port + '/webhooks'),
  );
}
`;
    const cli = await startCli(['--seed', 'empty', '--control-token', TOKEN, '--device', 'dev_1', '--device', DEVICE]);
    const receiver = spawnNode([writeProgram(source)]);
    const [, rotatingUrl] = await receiver.printed(/rotating listening on (http:\/\/\S+)/);
    const [, perDeviceUrl] = await receiver.printed(/per-device listening on (http:\/\/\S+)/);
    const control = controlApi(cli.url, TOKEN);
    const say = async (device: string, text: string) => {
      expect((await control.post('simulate/message', { device_id: device, sender: '15551234567', text })).status).toBe(
        200,
      );
      await receiver.printed(new RegExp(`^${device} said ${text}$`, 'm'));
    };

    // Rotation: the tenant's webhook signs with the old secret, then with the new one.
    expect((await control.post('webhooks', { url: rotatingUrl, secret: OLD })).status).toBe(201);
    await say(DEVICE, 'before-rotation');
    expect((await control.post('webhooks', { url: rotatingUrl, secret: NEW })).status).toBe(201);
    await say(DEVICE, 'after-rotation');

    // Devices: dev_1 has its own URL and secret; every other device goes to the tenant's webhook.
    expect((await control.post('webhooks', { url: perDeviceUrl, secret: SECRET })).status).toBe(201);
    const own = { device_id: 'dev_1', url: perDeviceUrl, secret: DEVICE_SECRET };
    expect((await control.post('webhooks', own)).status).toBe(201);
    await say('dev_1', 'with-its-own-secret');
    await say(DEVICE, 'with-the-tenant-secret');

    expect((await control.post('drain')).body).toMatchObject({ ok: true });
    const rows = (await attempts(control)).map((a) => a.row);
    expect(rows).toEqual(Array(4).fill('message.received 200 delivered'));
    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
  });

  it('testing a receiver: the same test delivery sent twice is handled once and acknowledged twice', async () => {
    const source = `${APP}${threeLines}const handler = POST;
${testingReceiver}const repeat = await handler(delivery.request);
console.log(response.status, repeat.status, JSON.stringify(await repeat.json()));
`;
    // The snippet signs with the secret it names; the handler reads WEBHOOK_SECRET, which the app sets to the same.
    const [, secret] = /secret: '(whsec_live_)' \+ '0'\.repeat\(32\)/.exec(testingReceiver) ?? [];
    expect(secret).toBe('whsec_live_');
    const env = { WEBHOOK_SECRET: `whsec_live_${'0'.repeat(32)}` };
    const result = await runProgram({ source }, { env, timeoutMs: 90_000 });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('saved m1 from 15551234567: undefined\n200 200 {"status":"success"}\n');
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer
  });
});
