// A receiver built with linkgate's defaults, in its own process, keeps accepting the mock gateway's deliveries while
// a test moves the mock's manual clock 10 minutes over HTTP: the delivery timestamp is the attempt's real time.
import { describe, expect, it } from 'vitest';
import { controlApi } from './support/gateway-control.js';
import { spawnNode, startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-manual-clock';
const SECRET = `whsec_live_${'5'.repeat(32)}`;

describe('gateway deliveries on a manual clock to a receiver in its own process', () => {
  it('has every event accepted (2xx) and none dead-lettered while the clock moves 10 minutes', async () => {
    const started = performance.now();
    const cli = await startCli(['--clock', 'manual', '--control-token', TOKEN, '--quiet']);
    const receiver = spawnNode(['examples/webhook-receiver-node.ts'], { env: { WEBHOOK_SECRET: SECRET, PORT: '0' } });
    const [, url] = await receiver.printed(/listening for webhooks on (http:\/\/\S+)/);
    const control = controlApi(cli.url, TOKEN);

    expect((await control.post('webhooks', { url, secret: SECRET })).status).toBe(201);
    const device = await control.post('devices', { id: 'phone-1' });
    expect(device.status).toBe(201);
    const t0 = (await control.post('clock/advance', { ms: 0 })).body.now as number;

    // One message now and one after each minute of mock time, 10 minutes in all, and a status change at the end.
    for (let minute = 0; minute <= 10; minute++) {
      if (minute > 0) expect((await control.post('clock/advance', { ms: 60_000 })).status).toBe(200);
      const sim = await control.post('simulate/message', {
        device_id: 'phone-1',
        sender: '15551234567',
        text: `minute ${minute}`,
      });
      expect(sim.status).toBe(200);
    }
    await control.post('simulate/status', { device_id: 'phone-1', status: 'OFFLINE', reason: 'battery' });
    const drained = await control.post('drain');
    expect(drained.body).toMatchObject({ ok: true, now: t0 + 600_000 });

    const attempts = (await control.get('attempts?redact=1')).body.attempts as {
      outcome: string;
      response: { status: number } | null;
    }[];
    expect(attempts).toHaveLength(12);
    expect(attempts.every((a) => a.outcome === 'delivered' && a.response?.status === 200)).toBe(true);
    expect((await control.get('dead-letters')).body.items).toEqual([]);
    await receiver.printed(/phone-1: device is OFFLINE \(battery\)/);
    const handled = receiver.out().match(/phone-1: message from 15551234567: minute \d+/g) ?? [];
    expect(handled).toHaveLength(11);
    expect(receiver.out()).not.toContain('refused a delivery');

    receiver.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(90_000); // 10 minutes of mock time; processes start slowly under load
  });
});
