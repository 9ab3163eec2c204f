// The README's receiver snippets (quick start 3) as users run them: each served by its own `node` process, receiving
// the CLI gateway's deliveries in real time. test/package/pack.test.ts runs them from the packed tarball with
// hand-made deliveries; here the gateway itself retries after a 500 and sends a duplicate.
import { describe, expect, it } from 'vitest';
import { controlApi } from '../../e2e/support/gateway-control.js';
import { spawnNode, startCli, writeProgram } from '../../e2e/support/processes.js';
import { adapt, readmeSnippet } from '../../package/support/newcomer-project.js';

const TOKEN = 'ctl-e2e-guide-readme';
const SECRET = `whsec_live_${'9'.repeat(32)}`;
const DEVICE = 'phone-1';

const route = readmeSnippet('3. Receive webhooks', 0);
const nodeServer = readmeSnippet('3. Receive webhooks', 1);

/** The app's own functions the route calls; saving fails once (the database was briefly down), so the gateway retries. */
const APP = `let saves = 0;
const saveMessage = async (sender: string, text?: string) => {
  if (++saves === 1) throw new Error('database unavailable');
  console.log('saved ' + sender + ': ' + text);
};
const markDelivered = (id: string, status: string) => console.log('marked ' + id + ' ' + status);
`;

/** Prints `listening on <url>` once the server `name` (a node:http Server) listens on a free loopback port. */
const printUrl = (name: string) =>
  `console.log('listening on http://127.0.0.1:' + (${name}.address() as import('node:net').AddressInfo).port + '/webhooks')`;

/** Starts the CLI's gateway and a receiver program in its own process, attached as the tenant's webhook. */
async function receiverAndGateway(source: string, events?: string[]) {
  const cli = await startCli(['--seed', 'empty', '--control-token', TOKEN, '--device', DEVICE]);
  const receiver = spawnNode([writeProgram(source)], { env: { WEBHOOK_SECRET: SECRET } });
  const [, url] = await receiver.printed(/listening on (http:\/\/\S+)/);
  const control = controlApi(cli.url, TOKEN);
  expect((await control.post('webhooks', { url, secret: SECRET, ...(events && { events }) })).status).toBe(201);
  return { cli, receiver, control };
}

describe("the README's receiver snippets, each in its own node process, fed by the CLI's gateway", () => {
  it('has the snippets the tests read', () => {
    expect(route).toContain('dedupe: true,');
    expect(route).toContain('await saveMessage(event.data.sender, event.data.text);');
    expect(route).toContain('markDelivered(event.data.message_id, event.data.status)');
    expect(nodeServer).toContain('createServer(toNodeHandler(handler)).listen(3000);');
  });

  it('the route handler: a 500 from a failing save is retried and saved once, a duplicate is not handled twice, a receipt is marked', async () => {
    const started = performance.now();
    const source = `${APP}${route}
import { createServer as serveOn } from 'node:http';
import { toNodeHandler as nodeAdapter } from 'linkgate/webhooks';
const receiver = serveOn(nodeAdapter(POST)).listen(0, '127.0.0.1', () => ${printUrl('receiver')});
`;
    const { cli, receiver, control } = await receiverAndGateway(source, [
      'message.received',
      'message.ack',
      'device.status',
    ]);

    const sent = performance.now();
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'first' });
    await receiver.printed(/^saved 15551234567: first$/m);
    // The gateway retried 3 s (plus up to 1 s of jitter) after the 500.
    expect(performance.now() - sent).toBeGreaterThanOrEqual(2_900);

    expect((await control.post('faults', { duplicate: true })).status).toBe(200);
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'second' });
    const ack = { device_id: DEVICE, message_id: 'out-1', recipient: '15557654321', status: 'read' };
    expect((await control.post('simulate/ack', ack)).status).toBe(200);
    await control.post('simulate/status', { device_id: DEVICE, status: 'OFFLINE', reason: 'battery' });
    await receiver.printed(new RegExp(`^${DEVICE} OFFLINE$`, 'm'));
    await receiver.printed(/^marked out-1 read$/m);
    expect((await control.post('drain')).body).toMatchObject({ ok: true });

    const attempts = (await control.get('attempts?redact=1')).body.attempts as { outcome: string }[];
    expect(attempts.map((a) => a.outcome).sort()).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
      'delivered',
      'failed',
    ]);
    expect((await control.get('dead-letters')).body.items).toEqual([]);
    // Five deliveries of four events, each handled once (the failed attempt released its id for the retry).
    expect(
      receiver
        .out()
        .match(/^(saved|marked) .*$/gm)
        ?.sort(),
    ).toEqual(['marked out-1 read', 'saved 15551234567: first', 'saved 15551234567: second']);

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(90_000); // no wait left running; processes start slowly under load
  });

  it("the node:http server acknowledges the gateway's deliveries", async () => {
    const source = adapt(
      nodeServer,
      'createServer(toNodeHandler(handler)).listen(3000);',
      `const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1', () => ${printUrl('server')});`,
    );
    const { cli, receiver, control } = await receiverAndGateway(source);

    await control.post('simulate/message', {
      device_id: DEVICE,
      sender: '15551234567',
      text: 'hello from the gateway',
    });
    await receiver.printed(/^hello from the gateway$/m);
    expect((await control.post('drain')).body).toMatchObject({ ok: true });
    expect((await control.get('attempts')).body.attempts).toEqual([
      expect.objectContaining({
        event: 'message.received',
        outcome: 'delivered',
        response: expect.objectContaining({ status: 200 }),
      }),
    ]);

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
  });
});
