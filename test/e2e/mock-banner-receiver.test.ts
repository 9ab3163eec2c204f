// The banner's "attach a webhook receiver" lines, followed literally with the README's receiver (issue 31, item 19):
// the receiver started with the environment the banner gives it, the banner's curl run as printed (only the
// receiver's port differs: the test cannot have 3000), then an inbound message and a receipt. Both are accepted.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { spawnNode, startCli } from './support/processes.js';
import { call } from './support/state-calls.js';

describe('the banner’s webhook receiver example', () => {
  it('gets its first delivery accepted by the README’s receiver, receipts included', async () => {
    const cli = await startCli(['--quiet', '--device', 'phone-1']);
    const banner = cli.out();
    const token = /token (ctl_\w+)/.exec(banner)?.[1] as string;

    // "start your receiver with WEBHOOK_SECRET=..." : the environment the receiver gets.
    const env = /receiver with (WEBHOOK_SECRET=\S+)/.exec(banner)?.[1] as string;
    expect(env).toMatch(/^WEBHOOK_SECRET=whsec_live_[0-9a-f]{32}$/);
    const [name, value] = env.split('=') as [string, string];
    const receiver = spawnNode(['examples/webhook-receiver-node.ts'], { env: { [name]: value, PORT: '0' } });
    const [, receiverUrl] = (await receiver.printed(/listening for webhooks on (\S+)/)) as unknown as [string, string];

    // The curl command as printed, its continuation lines joined, pointed at this receiver's port.
    const lines = banner.split('\n');
    const at = lines.findIndex((line) => line.trim().startsWith(`curl ${cli.url}/__mock/webhooks`));
    const command = `${lines[at]?.replace(/\\$/, '')} ${lines[at + 1]}`
      .trim()
      .replace('http://127.0.0.1:3000/webhooks', receiverUrl);
    const attached = JSON.parse(execFileSync('sh', ['-c', `${command} --silent --show-error`], { encoding: 'utf8' }));
    expect(attached.url).toBe(receiverUrl);

    const sent = await call(cli.url, token, 'POST', '/__mock/simulate/message', {
      device_id: 'phone-1',
      sender: '15551234567',
      text: 'hello from the banner',
    });
    expect(sent.status, sent.text).toBeLessThan(300);
    await receiver.printed(/phone-1: message from 15551234567: hello from the banner/);
    const ack = await call(cli.url, token, 'POST', '/__mock/simulate/ack', {
      device_id: 'phone-1',
      message_id: 'wamid-1',
      recipient: '15551234567',
      status: 'read',
    });
    expect(ack.status, ack.text).toBeLessThan(300);
    await receiver.printed(/phone-1: wamid-1 is read/);

    // The receiver prints before its answer reaches the gateway: wait for the attempts to be settled.
    expect(JSON.parse((await call(cli.url, token, 'POST', '/__mock/drain')).text)).toMatchObject({ ok: true });
    const { attempts } = JSON.parse((await call(cli.url, token, 'GET', '/__mock/attempts')).text) as {
      attempts: { event: string; response: { status: number } | null }[];
    };
    expect(attempts.map((a) => [a.event, a.response?.status])).toEqual([
      ['message.received', 200],
      ['message.ack', 200],
    ]);
    expect(receiver.out()).not.toContain('refused a delivery');
    expect(await cli.stop()).toBe(0);
    receiver.child.kill();
  });
});
