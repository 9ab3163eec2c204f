// `linkgate mock`'s command line, run in-process: what each flag asks the server for, and every mistake refused with
// the flag and its rule. The servers here are the ones the CLI would start from those options, on a free port; one
// spawned process per exit path is in test/mock/cli.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../mock/adapters/node-server.js';
import { formatBanner } from '../../../mock/cli/mock-banner.js';
import { MOCK_HELP, type MockCliOptions, MockUsageError, readMockOptions } from '../../../mock/cli/mock-options.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The options `linkgate <args>` asks for; fails the test on 'help'. */
function options(args: string[]): MockCliOptions {
  const read = readMockOptions(args);
  if (read === 'help') throw new Error(`${args.join(' ')} asked for the help`);
  return read;
}

/** Starts the server `linkgate mock --port 0 <args>` would start, and its banner. */
async function serve(args: string[]) {
  const opts = options(['mock', '--port', '0', ...args]);
  const { quiet: _quiet, ...serverOptions } = opts;
  const server = await startMockServer(serverOptions);
  servers.push(server);
  return { server, url: server.url, banner: formatBanner(server, opts) };
}

/** The message of the MockUsageError `linkgate <args>` is refused with. */
function refusal(args: string[]): string {
  try {
    readMockOptions(args);
  } catch (error) {
    expect(error).toBeInstanceOf(MockUsageError);
    return (error as Error).message;
  }
  throw new Error(`${args.join(' ')} was accepted`);
}

describe('linkgate mock reads its flags', () => {
  it('defaults to port 4010 on 127.0.0.1, the demo seed, the default rate limit, a real clock, and a line per request', () => {
    const read = options(['mock']);
    expect(read).toMatchObject({ port: 4010, host: '127.0.0.1', seed: 'demo', rateLimit: undefined, quiet: false });
    expect(read.clock).toBeUndefined();
    expect(read.variants).toBeUndefined();
    expect(read.gateway).toEqual({
      messagingKey: undefined,
      controlToken: undefined,
      devices: [],
      allowHttpReceivers: false,
    });
  });

  it('takes --port, --host, --admin-key, --seed, --rate-limit, --control-token, --allow-http-receivers and --quiet', () => {
    const read = options([
      'mock',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--admin-key',
      'k-admin',
      '--seed',
      'empty',
      '--rate-limit',
      '5/10s',
      '--control-token',
      'ctl_long_enough',
      '--allow-http-receivers',
      '--quiet',
    ]);
    expect(read).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      adminKey: 'k-admin',
      seed: 'empty',
      rateLimit: { limit: 5, windowMs: 10_000 },
      quiet: true,
      gateway: { controlToken: 'ctl_long_enough', allowHttpReceivers: true },
    });
  });

  it('asks for the help with --help or -h, alone or after mock', () => {
    for (const args of [['--help'], ['-h'], ['mock', '--help'], ['mock', '-h', '--port', '1']]) {
      expect(readMockOptions(args)).toBe('help');
    }
  });

  it('prints the rate limit as "off" and sends no rate-limit headers with --rate-limit off', async () => {
    const { url, banner } = await serve(['--seed', 'empty', '--rate-limit', 'off', '--admin-key', 'k-off']);
    expect(banner).toContain('rate limit: off');
    const res = await fetch(`${url}/api/account`, { headers: { authorization: 'Bearer k-off' } });
    expect((await res.json()).error).toBe(0);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('gives the default tenant a key and online devices with --messaging-key and --device, so sends work at once', async () => {
    const key = `gw_live_${'c'.repeat(24)}`;
    const { url, banner } = await serve(['--messaging-key', key, '--device', 'phone-1', '--device', 'phone-2']);
    expect(banner).toContain('Online devices (tenant "default"): phone-1, phone-2');
    expect(banner).toContain(`key ${key} (tenant "default")`);
    const res = await fetch(`${url}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: 'auto', phone: '15551234567', message: 'hi' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.device_id).toBe('phone-1');
  });

  it('moves time only through the control API with --clock manual, so a rate window resets on demand', async () => {
    const { server, url, banner } = await serve(['--seed', 'empty', '--clock', 'manual', '--rate-limit', '2/60s']);
    expect(banner).toContain('clock: manual');
    const token = /token (ctl_\w+)/.exec(banner)![1]!;
    const key = /admin\s+(\S+)\s+\(admin\)/.exec(banner)![1]!;
    expect(key).toBe(server.backend.adminKey);
    const account = () =>
      fetch(`${url}/api/account`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
    await account();
    await account();
    expect((await account()).error).toBe(429); // the window is spent and real time does not move it
    const advanced = await fetch(`${url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(advanced.status).toBe(200);
    expect((await account()).error).toBe(0);
  });

  it('reproduces the production variants named by --variant (comma-separated, repeatable, each once)', async () => {
    const { url, banner } = await serve([
      '--admin-key',
      'k-variant',
      '--variant',
      'overlayCollection,stringIds',
      '--variant',
      'negativeRemaining, stringIds',
      '--rate-limit',
      '2/60s',
    ]);
    expect(banner).toContain('production variants: overlayCollection, stringIds, negativeRemaining');
    const headers = { authorization: 'Bearer k-variant', 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/domain/add`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domain: 'https://cli-variant.example' }),
    });
    expect((await created.json()).id).toEqual(expect.stringMatching(/^\d+$/));
    const overlays = await (await fetch(`${url}/api/overlay`, { headers })).json();
    expect(overlays.data).toHaveProperty('overlay');
    expect(overlays.data).not.toHaveProperty('cta');
    const limited = await fetch(`${url}/api/overlay`, { headers });
    expect((await limited.json()).error).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('-1');
  });

  it('prints the admin key it was given, and says whose keys show the demo data', async () => {
    const { banner } = await serve(['--seed', 'demo', '--admin-key', 'cli-admin-key']);
    expect(banner).toMatch(/cli-admin-key\s+\(admin\)/);
    expect(banner).toMatch(/The demo data belongs to .*: use their keys to see it/);
    expect(banner).toContain('Stop with Ctrl+C.');
  });
});

describe('linkgate mock refuses a wrong command line, naming the flag and its rule', () => {
  it('names an unknown flag and lists the known ones', () => {
    const message = refusal(['mock', '--prot', '4010']);
    expect(message).toContain('Unknown option --prot');
    expect(message).toContain('--port');
  });

  it.each([
    [['mock', '--port', '70000'], '--port must be a whole number from 0 to 65535 (0 picks a free port); got "70000".'],
    [['mock', '--port=-1'], '--port must be a whole number from 0 to 65535'],
    [['mock', '--host', ' '], '--host must be an interface address such as 127.0.0.1 or 0.0.0.0; got an empty value.'],
    [['mock', '--admin-key', 'a b'], '--admin-key must be a non-empty string without spaces.'],
    [['mock', '--seed', 'full'], '--seed must be "demo" or "empty"; got "full".'],
    [['mock', '--rate-limit', '30/min'], '--rate-limit must be <requests>/<seconds>s'],
    [['mock', '--rate-limit', '0/60s'], '--rate-limit must be <requests>/<seconds>s with both at least 1'],
    [['mock', '--messaging-key', 'gw_live_short'], '--messaging-key must be "gw_live_" followed by 24 or more'],
    [['mock', '--control-token', 'short'], '--control-token must be at least 8 characters without spaces'],
    [['mock', '--clock', 'fake'], '--clock must be "real" or "manual"'],
    [
      ['mock', '--variant', 'stringIds,overlays'],
      '--variant "overlays" is not a known variant; the variants are overlayCollection, stringIds, negativeRemaining, perAttemptDeliveryIds.',
    ],
    [['mock', '--variant', ''], '--variant got an empty name; the variants are overlayCollection'],
    [['mock', '--device', 'my phone'], '--device "my phone": a device id must be 1-64 letters, digits'],
    [['mock', '--device', 'auto'], '--device "auto": a device id must not be "auto"'],
    [['mock', '--device', 'p1', '--device', 'p1'], '--device "p1": a device id is already taken by another device.'],
    [['mock', '--state', ' '], '--state must be a file path; got an empty value.'],
    [['mock', '--fixture', ''], '--fixture must be a file path; got an empty value.'],
    [['mock', 'extra'], 'Unexpected argument "extra"; options start with --.'],
    [['--port', '1'], 'No command given; the commands are "mock", "trigger", "check" and "proxy".'],
    [['serve'], 'Unknown command "serve"; the commands are "mock", "trigger", "check" and "proxy".'],
  ])('%j', (args, message) => {
    expect(refusal(args)).toContain(message);
  });
});

describe('linkgate mock --help', () => {
  it('describes every flag, the inspector link and the rule of --control-token', () => {
    expect(MOCK_HELP).toContain('Usage: linkgate mock');
    for (const flag of ['--port', '--host', '--admin-key', '--seed', '--rate-limit', '--messaging-key', '--device']) {
      expect(MOCK_HELP).toContain(flag);
    }
    expect(MOCK_HELP).toContain('--variant <names>');
    expect(MOCK_HELP).toContain('--quiet');
    expect(MOCK_HELP).toMatch(/--state <file>\s+load the state from this JSON file/);
    expect(MOCK_HELP).toMatch(/--fixture <file>\s+load a fixture \(the POST \/__mock\/fixture format/);
    // The inspector page is found from the help too, not only from the banner of a running server.
    expect(MOCK_HELP).toMatch(/Inspector: .*http:\/\/<host>:<port>\/#token=<control token>/);
    expect(MOCK_HELP).toContain('live page of the data, deliveries, circuits, dead letters and pairing');
    // The rule --control-token is checked against is stated where the flag is described.
    expect(MOCK_HELP).toMatch(
      /--control-token <t>\s+token of the \/__mock\/ control API: 8 or more\s+characters, no spaces/,
    );
  });
});
