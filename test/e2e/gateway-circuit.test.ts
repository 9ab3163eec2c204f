// The circuit against a real receiver in its own process, driven over HTTP on a manual clock: once five failures
// open it, nothing but the probe reaches the receiver for 30 s, even when an attempt that was already in flight
// answers 200 meanwhile (issue #11's minimal case: six events, five fail while the first is in flight).
import { describe, expect, it } from 'vitest';
import { controlApi, startReceiverProcess } from './support/gateway-control.js';
import { startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-circuit';

/**
 * Holds the first delivery until the sixth has arrived and answers it 200 a moment after the five between have been
 * answered 500; answers 200 from then on. Prints each delivery.
 */
const FAILING_RECEIVER = `
import { createServer } from 'node:http';
let n = 0;
let answerFirst;
const server = createServer((req, res) => {
  const i = n++;
  req.resume();
  req.on('end', () => {
    console.log('delivery ' + i + ' ' + req.headers['x-service-delivery-id']);
    const answer = (status) => res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    if (i === 0) answerFirst = () => answer(200);
    else answer(i > 5 ? 200 : 500);
    if (i === 5) setTimeout(answerFirst, 200);
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/hooks'));
`;

describe('the webhook circuit against a receiver in its own process', () => {
  it('stays open until the probe: an in-flight 200 does not close it, and no call reaches the receiver while open', async () => {
    const cli = await startCli(['--clock', 'manual', '--control-token', TOKEN, '--quiet', '--device', 'phone-1']);
    const receiver = await startReceiverProcess(FAILING_RECEIVER);
    const calls = () => receiver.proc.out().match(/^delivery \d+/gm)?.length ?? 0;
    const control = controlApi(cli.url, TOKEN);
    expect((await control.post('webhooks', { url: receiver.url })).status).toBe(201);
    const t0 = (await control.post('clock/advance', { ms: 0 })).body.now as number;

    for (let i = 0; i < 6; i++) await control.post('simulate/message', { device_id: 'phone-1', sender: '15551234567' });
    await until(async () => (await control.get('attempts')).body.attempts.length === 6);
    expect(calls()).toBe(6);
    const outcomes = (await control.get('attempts')).body.attempts.map((a: { outcome: string }) => a.outcome);
    expect(outcomes.sort()).toEqual(['delivered', 'failed', 'failed', 'failed', 'failed', 'failed']);
    expect((await control.get('circuits')).body.circuits).toEqual([
      expect.objectContaining({ url: receiver.url, state: 'open', openUntil: t0 + 30_000 }),
    ]);

    // The five retries fall due at +3 s and meet the open circuit: the receiver hears nothing for 30 s.
    await control.post('clock/advance', { ms: 29_999 });
    expect(calls()).toBe(6);
    expect((await control.get('circuits')).body.circuits[0]).toMatchObject({ state: 'open' });

    // At +30 s one probe goes; its 200 closes the circuit and the four held behind it follow.
    await control.post('clock/advance', { ms: 1 });
    expect((await control.post('drain')).body).toMatchObject({ ok: true });
    expect(calls()).toBe(11);
    const attempts = (await control.get('attempts')).body.attempts as {
      outcome: string;
      probe: boolean;
      startedAt: number;
    }[];
    const sent = attempts.filter((a) => a.outcome !== 'circuit-open');
    expect(sent.filter((a) => a.startedAt > t0 && a.startedAt < t0 + 30_000)).toEqual([]);
    expect(attempts.filter((a) => a.probe)).toEqual([
      expect.objectContaining({ startedAt: t0 + 30_000, outcome: 'delivered' }),
    ]);
    expect((await control.get('circuits')).body.circuits[0]).toMatchObject({ state: 'closed' });
    expect((await control.get('dead-letters')).body.items).toEqual([]);
    expect(await cli.stop()).toBe(0);
  });
});

/** Polls (in real time, bounded) until the mock has recorded what the receiver's answers bring about. */
async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
