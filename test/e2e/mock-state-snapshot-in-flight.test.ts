// `PUT /__mock/snapshot` while a delivery is out at a slow receiver (issue 31, item 11): what was in progress
// belongs to the state being replaced and is dropped. The receiver's late answer neither dead-letters the event nor
// schedules its next attempt in the restored state. The receiver is a slow server in its own process.
import { describe, expect, it } from 'vitest';
import { spawnNode, startCli, writeProgram } from './support/processes.js';
import { call } from './support/state-calls.js';

const TOKEN = 'ctl-snapshot-in-flight';
const HOLD_MS = 1_500;

/** A receiver that holds every delivery HOLD_MS, then answers the status its path names (`/hooks/400`). */
const slowReceiver = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  console.log('got ' + req.url);
  req.resume();
  setTimeout(() => {
    res.writeHead(Number(req.url.split('/').pop())).end('slow answer');
    console.log('answered ' + req.url);
  }, ${HOLD_MS});
});
server.listen(0, '127.0.0.1', () => console.log('listening http://127.0.0.1:' + server.address().port));
`;

const json = async (url: string, path: string, method = 'GET', body?: unknown) => {
  const answer = await call(url, TOKEN, method, path, body);
  expect(answer.status, answer.text).toBeLessThan(300);
  return JSON.parse(answer.text);
};

describe('PUT /__mock/snapshot with a delivery in flight', () => {
  it.each([
    [400, 'dead letter'],
    [500, 'scheduled retry'],
  ])('drops it: a late %i answer leaves no %s in the restored state', async (status) => {
    const receiver = spawnNode([writeProgram(slowReceiver)]);
    const [, receiverUrl] = (await receiver.printed(/listening (http:\/\/\S+)/)) as unknown as [string, string];
    const cli = await startCli(['--quiet', '--control-token', TOKEN, '--rate-limit', 'off']);
    await json(cli.url, '/__mock/devices', 'POST', { id: 'phone', status: 'ONLINE' });
    await json(cli.url, '/__mock/webhooks', 'POST', { url: `${receiverUrl}/hooks/${status}` });
    const saved = await json(cli.url, '/__mock/snapshot');

    await json(cli.url, '/__mock/simulate/message', 'POST', { device_id: 'phone', sender: '15551234567', text: 'hi' });
    await receiver.printed(/got \/hooks/);
    await json(cli.url, '/__mock/snapshot', 'PUT', saved);
    await receiver.printed(/answered \/hooks/);
    // The engine hears the answer right after it is sent; give it a moment to (not) act on it.
    await new Promise((r) => setTimeout(r, 500));

    expect((await json(cli.url, '/__mock/dead-letters')).items).toEqual([]);
    expect(await json(cli.url, '/__mock/scheduled')).toMatchObject({ scheduled: [] });
    expect((await json(cli.url, '/__mock/attempts')).attempts).toEqual([]);
    expect(await cli.stop()).toBe(0);
    receiver.child.kill();
  });
});
