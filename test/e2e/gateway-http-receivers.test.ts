// `linkgate mock --allow-http-receivers` lets a test set-up register plain-http receivers on other hosts
// (docker-compose, Kubernetes); without it they are refused with a message naming the flag. Loopback http works
// either way, and deliveries to it go through.
import { describe, expect, it } from 'vitest';
import { controlApi, startReceiverProcess } from './support/gateway-control.js';
import { startCli } from './support/processes.js';

const TOKEN = 'ctl-e2e-http-receivers';
const IN_CONTAINER = 'http://receiver:3000/webhooks';

/** Answers every delivery 200 and prints its event. */
const RECEIVER = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    console.log('got ' + req.headers['x-service-event']);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/hooks'));
`;

describe('plain-http receivers', () => {
  it('refuses a non-loopback http receiver by default, naming --allow-http-receivers', async () => {
    const cli = await startCli(['--control-token', TOKEN, '--quiet']);
    const refused = await controlApi(cli.url, TOKEN).post('webhooks', { url: IN_CONTAINER });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request', field: 'url' });
    expect(refused.body.message).toContain('--allow-http-receivers');
    expect(await cli.stop()).toBe(0);
  });

  it('accepts it with --allow-http-receivers, and still delivers to a loopback http receiver', async () => {
    const cli = await startCli(['--control-token', TOKEN, '--quiet', '--allow-http-receivers', '--device', 'p1']);
    const control = controlApi(cli.url, TOKEN);
    expect(await control.post('webhooks', { url: IN_CONTAINER })).toMatchObject({
      status: 201,
      body: { url: IN_CONTAINER },
    });
    const receiver = await startReceiverProcess(RECEIVER);
    expect((await control.post('webhooks', { url: receiver.url })).status).toBe(201);
    await control.post('simulate/message', { device_id: 'p1', sender: '15551234567' });
    expect((await control.post('drain')).body).toMatchObject({ ok: true });
    await receiver.proc.printed(/got message\.received/);
    expect((await control.get('attempts')).body.attempts).toEqual([
      expect.objectContaining({ url: receiver.url, outcome: 'delivered' }),
    ]);
    expect(await cli.stop()).toBe(0);
  });
});
