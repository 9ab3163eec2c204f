// `linkgate mock` run as users run it: it says what happens (requests, delivery attempts, circuit changes, dead
// letters) one line each, never printing a key, and `--quiet` keeps it to the banner.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';

let receiver: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

/** A receiver that answers every delivery with the status `answer()` gives at that moment. */
async function startReceiver(answer: () => number): Promise<string> {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = answer();
      res.end('{"status":"ok"}');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
}

/** The lines printed after the banner. */
const activity = (out: string) => out.slice(out.indexOf('Stop with Ctrl+C.')).split('\n').slice(1).filter(Boolean);

describe('linkgate mock activity log', () => {
  it('prints one line per request with the caller by name, and no key', async () => {
    const cli = await startCli(['--seed', 'demo']);
    const alice = /^\s+alice\s+([0-9a-f]{32})/m.exec(cli.out())![1]!;
    const token = /Bearer (ctl_[0-9a-f]+)/.exec(cli.out())![1]!;
    expect(cli.out()).toContain(`OpenAPI document: ${cli.url}/openapi.json`);
    expect(cli.out()).toMatch(/demo data belongs to alice and bob_smith/);

    await fetch(`${cli.url}/api/domains`, { headers: { authorization: `Bearer ${alice}` } });
    await fetch(`${cli.url}/api/account`, { headers: { authorization: `Bearer ${'f'.repeat(28)}abcd` } });
    await fetch(`${cli.url}/__mock/circuits`, { headers: { authorization: `Bearer ${token}` } });
    await cli.printed(/GET \/__mock\/circuits 200/);

    const lines = activity(cli.out());
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/api\/domains 200 alice \(user 2\) \d+ ms$/);
    expect(lines[1]).toMatch(/GET \/api\/account 403 unknown key …abcd \d+ ms$/);
    expect(lines[2]).toMatch(/GET \/__mock\/circuits 200 control token \d+ ms$/);
    const printedAfterBanner = lines.join('\n');
    expect(printedAfterBanner).not.toContain(alice);
    expect(printedAfterBanner).not.toContain(token);
    expect(await cli.stop()).toBe(0);
  });

  it('prints each delivery attempt, the circuit opening and each dead letter', async () => {
    let status = 410;
    const url = await startReceiver(() => status);
    const cli = await startCli(['--clock', 'manual', '--device', 'phone-1']);
    const token = /Bearer (ctl_[0-9a-f]+)/.exec(cli.out())![1]!;
    const control = (path: string, body?: unknown) =>
      fetch(`${cli.url}/__mock/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await control('webhooks', { url })).status).toBe(201);
    const message = (n: number) =>
      control('simulate/message', { device_id: 'phone-1', sender: '15551234567', text: `m${n}` });

    // 410 is neither 200 nor 5xx: the event is dead-lettered at once.
    await message(0);
    await control('drain');
    await cli.printed(/dead letter message\.received \S+ to \S+: rejected after 1 attempt\(s\), last 410/);
    expect(cli.out()).toMatch(/delivery message\.received \S+ attempt 1 to \S+: 410, rejected/);

    // Five failures in a row open the receiver's circuit.
    status = 500;
    for (let n = 1; n <= 5; n++) await message(n);
    await control('drain');
    await cli.printed(/circuit \S+: closed -> open until \d{4}-/);
    expect(cli.out().match(/: 500, failed, next attempt at /g)?.length).toBe(5);
    expect(await cli.stop()).toBe(0);
  });

  it('prints only the banner with --quiet', async () => {
    const cli = await startCli(['--quiet']);
    expect(cli.out()).not.toContain('--quiet turns them off');
    const res = await fetch(`${cli.url}/openapi.json`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // Give a line that should not come the time it would take to come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(activity(cli.out())).toEqual([]);
    expect(await cli.stop()).toBe(0);
  });
});
