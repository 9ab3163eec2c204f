// A receiver in its own process that never answers, and a mock on a manual clock driven over HTTP: advancing the
// clock past the attempt's 8 s deadline answers promptly and times the attempt out; drain answers instead of hanging.
import { describe, expect, it } from 'vitest';
import { controlApi, startReceiverProcess } from './support/gateway-control.js';
import { startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-hanging-receiver';

/** Reads each delivery to its end and never answers it. */
const HANGING_RECEIVER = `
import { createServer } from 'node:http';
const server = createServer((req) => req.resume());
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/hooks'));
`;

describe('a manual clock and a receiver that never answers', () => {
  it('advances 8 s over HTTP promptly, records the attempt as timed out and schedules its retry', async () => {
    const cli = await startCli(['--clock', 'manual', '--control-token', TOKEN, '--quiet', '--device', 'phone-1']);
    const { url } = await startReceiverProcess(HANGING_RECEIVER);
    const control = controlApi(cli.url, TOKEN);
    expect((await control.post('webhooks', { url })).status).toBe(201);
    const t0 = (await control.post('clock/advance', { ms: 0 })).body.now as number;
    expect((await control.post('simulate/message', { device_id: 'phone-1', sender: '15551234567' })).status).toBe(200);

    // Drain answers within the answer grace (2 s), naming the attempt still out and how to time it out.
    let began = performance.now();
    const drained = await control.post('drain');
    expect(performance.now() - began).toBeLessThan(6_000);
    expect(drained).toMatchObject({
      status: 200,
      body: { ok: false, inFlight: [{ url, attempt: 1, startedAt: t0, deadline: t0 + 8_000 }] },
    });
    expect(drained.body.message).toContain('/__mock/clock/advance');

    began = performance.now();
    const advanced = await control.post('clock/advance', { ms: 8_000 });
    expect(performance.now() - began).toBeLessThan(6_000);
    expect(advanced).toMatchObject({ status: 200, body: { now: t0 + 8_000, inFlight: [] } });
    const attempts = (await control.get('attempts')).body.attempts;
    expect(attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        outcome: 'failed',
        error: 'timeout',
        response: null,
        durationMs: 8_000,
        nextAttemptAt: t0 + 11_000,
      }),
    ]);
    expect((await control.get('scheduled')).body.scheduled).toEqual([
      expect.objectContaining({ attempt: 2, at: t0 + 11_000, waitingFor: 'time' }),
    ]);
    expect(await cli.stop()).toBe(0);
  });
});
