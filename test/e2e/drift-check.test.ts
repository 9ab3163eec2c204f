// `linkgate check` as users run it: the CLI in its own process against `linkgate mock` (plain and with each
// --variant), a drifting server with planted differences, and deployments that cannot be checked. Asserts exit codes,
// the --json report, that the variant is named, that nothing is reported on the plain mock, and that no key leaks.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../mock/cli/check-command.js';
import {
  DRIFTING_KEY,
  LEAKED_TOKEN,
  PLANTED,
  startDriftingServer,
  TOLERATED_VALUES,
} from '../drift/support/drifting-server.js';
import { mockWithRecording } from '../drift/support/recording-target.js';
import { closedPort } from '../support/closed-port.js';
import { type CliServer, describeRun, root, runCli, startCli } from './support/processes.js';

const ADMIN_KEY = 'drift-admin-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The keys a mock printed in its banner, by username. */
function keysOf(server: CliServer): Record<string, string> {
  return Object.fromEntries(
    [...server.out().matchAll(/^ {4}(\w+)\s+(\S+)\s+(?:\(admin\)|owns|no data)/gm)].map((m) => [m[1], m[2]]),
  );
}

const check = (args: string[], timeoutMs = 90_000) => runCli(['check', ...args], { timeoutMs });

describe('linkgate check against linkgate mock', { timeout: 120_000 }, () => {
  it('finds nothing to report on the plain mock, for a user key and an admin key with --write, and names no variant', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const alice = keysOf(mock).alice as string;
    const [user, admin] = await Promise.all([
      check(['--base-url', mock.url, '--api-key', alice, '--json']),
      check(['--base-url', mock.url, '--api-key', ADMIN_KEY, '--write', '--json']),
    ]);
    for (const run of [user, admin]) {
      expect(run.code, describeRun(run)).toBe(0);
      const report = JSON.parse(run.stdout) as CheckReport;
      expect(report.ok).toBe(true);
      expect(report.variants).toEqual([]);
      expect(report.reproduce).toBe('linkgate mock');
      expect(report.operations.flatMap((o) => o.differences)).toEqual([]);
    }
    const userReport = JSON.parse(user.stdout) as CheckReport;
    expect(userReport.admin).toBe(false);
    expect(userReport.operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining([
        'account.get',
        'domains.list',
        'splash.list',
        'overlays.list',
        'pixels.list',
        'qr.list',
        'qr.get',
      ]),
    );
    const adminReport = JSON.parse(admin.stdout) as CheckReport;
    expect(adminReport.admin).toBe(true);
    // --write made its own records and removed them: the admin's lists are as empty as before.
    const ops = adminReport.operations.map((o) => o.operation);
    expect(ops).toEqual(
      expect.arrayContaining([
        'plans.list',
        'users.list',
        'users.get',
        'domains.create',
        'domains.delete',
        'users.create',
        'users.delete',
      ]),
    );
    const left = await fetch(`${mock.url}/api/domains`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    expect(((await left.json()) as { data: { result: number } }).data.result).toBe(0);
  });

  it('walks every page of every list (--page-size 1), checking the paging numbers of each', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const run = await check([
      '--base-url',
      mock.url,
      '--api-key',
      keysOf(mock).alice as string,
      '--page-size',
      '1',
      '--json',
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    const calls = Object.fromEntries(
      (JSON.parse(run.stdout) as CheckReport).operations.map((o) => [o.operation, o.calls]),
    );
    // alice owns 2 domains, 2 splash pages, 2 overlays, 3 pixels and 3 QR codes: one call per page.
    expect(calls).toMatchObject({
      'domains.list': 2,
      'splash.list': 2,
      'overlays.list': 2,
      'pixels.list': 3,
      'qr.list': 3,
    });
  });

  it('names each --variant of the mock as the one that reproduces it', async () => {
    const variants = [
      ['overlayCollection', []],
      ['stringIds', ['--write']],
      // Only answers over the limit show -1: a small window makes the tour meet one, and wait it out.
      ['negativeRemaining', [], ['--rate-limit', '5/1s']],
    ] as const;
    const runs = await Promise.all(
      variants.map(async ([variant, flags, mockFlags = []]) => {
        const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet', '--variant', variant, ...mockFlags]);
        return [variant, await check(['--base-url', mock.url, '--api-key', ADMIN_KEY, '--json', ...flags])] as const;
      }),
    );
    for (const [variant, run] of runs) {
      expect(run.code, describeRun(run)).toBe(0);
      const report = JSON.parse(run.stdout) as CheckReport;
      expect(report.variants).toEqual([variant]);
      expect(report.reproduce).toBe(`linkgate mock --variant ${variant}`);
    }
  });

  it('says in its headline which variants it could not see, and why: stringIds without --write, perAttemptDeliveryIds through proxy --receiver', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet', '--variant', 'stringIds']);
    const run = await check(['--base-url', mock.url, '--api-key', ADMIN_KEY]);
    expect(run.code, describeRun(run)).toBe(0);
    // Nothing claims the plain mock reproduces this deployment: stringIds is on, and the tour could not see it.
    expect(run.stdout).not.toContain('reproduces this deployment');
    expect(run.stdout).toContain(
      'Production variants matched: none. Not checked: stringIds, negativeRemaining, perAttemptDeliveryIds (see below). The plain mock reproduces what was checked: linkgate mock',
    );
    expect(run.stdout).toContain('stringIds: not checked (only ids of new records show it: add --write to see)');
    expect(run.stdout).toContain('overlayCollection: not matched (the overlay list used "cta", as the API documents)');
    expect(run.stdout).toContain(
      "perAttemptDeliveryIds: not checked (webhook deliveries only show it: run linkgate proxy --receiver <your receiver URL>, set the gateway's webhook URL to the proxy, and let one delivery fail once)",
    );
  });

  it("keeps every user's key out of an admin's recording and report (the users list carries them), and leaves admins out", async () => {
    const source = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const keys = keysOf(source);
    const file = join(dir, 'admin.json');
    const run = await check(['--base-url', source.url, '--api-key', ADMIN_KEY, '--write', '--record', file, '--json']);
    expect(run.code, describeRun(run)).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(Object.keys(keys)).toEqual(['admin', 'alice', 'bob_smith']);
    for (const key of Object.values(keys)) expect(text + run.stdout + run.stderr).not.toContain(key);
    const recording = JSON.parse(text) as { users: { username: string }[] };
    expect(recording.users.map((u) => u.username)).toEqual(['alice', 'bob_smith']);
    expect(text).not.toMatch(/password|apikey|lgchk_/);
  });

  it('writes a recording (--record) that POST /__mock/fixture loads, without any key or password in it or the output', async () => {
    const source = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const keys = keysOf(source);
    const file = join(dir, 'alice.json');
    const run = await check(['--base-url', source.url, '--api-key', keys.alice as string, '--record', file, '--json']);
    expect(run.code, describeRun(run)).toBe(0);
    const text = readFileSync(file, 'utf8');
    for (const key of Object.values(keys)) {
      expect(text).not.toContain(key);
      expect(run.stdout + run.stderr).not.toContain(key);
    }
    expect(text).not.toMatch(/password|apikey/);
    const recording = JSON.parse(text) as {
      users: { username: string }[];
      domains: unknown[];
      pixels: unknown[];
      qrs: unknown[];
    };
    expect(recording.users.map((u) => u.username)).toEqual(['alice']);
    expect([recording.domains.length, recording.pixels.length, recording.qrs.length]).toEqual([2, 3, 3]);

    // Loaded into a running mock through the control API; its variants ([]) are the plain mock's.
    const target = await mockWithRecording(text);
    // The mock made alice a key of its own; the recorded records answer to it, and check finds them spec-true.
    const again = await check(['--base-url', target.url, '--api-key', target.keys.alice as string, '--json']);
    expect(again.code, describeRun(again)).toBe(0);
    const domains = (JSON.parse(again.stdout) as CheckReport).operations.find((o) => o.operation === 'domains.list');
    expect(domains?.calls).toBe(1);
  });

  it('writes the variants it matched into the recording: linkgate mock --fixture starts with them, POST /__mock/fixture refuses other ones', async () => {
    const source = await startCli(['--admin-key', ADMIN_KEY, '--quiet', '--variant', 'stringIds,overlayCollection']);
    const file = join(dir, 'variants.json');
    const flags = ['--api-key', ADMIN_KEY, '--write', '--json'];
    const run = await check(['--base-url', source.url, ...flags, '--record', file]);
    expect(run.code, describeRun(run)).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { variants: string[] }).variants).toEqual([
      'overlayCollection',
      'stringIds',
    ]);

    // Started from the recording alone: no --variant flag, yet check names the same variants.
    const replay = await startCli(['--admin-key', ADMIN_KEY, '--seed', 'empty', '--quiet', '--fixture', file]);
    expect(replay.out()).toContain('production variants: overlayCollection, stringIds');
    const again = await check(['--base-url', replay.url, ...flags]);
    expect(again.code, describeRun(again)).toBe(0);
    expect((JSON.parse(again.stdout) as CheckReport).variants).toEqual(['overlayCollection', 'stringIds']);

    // A running mock cannot change its variants: the control API names the field and where variants are chosen.
    const plain = await startCli(['--quiet', '--control-token', 'ctl_drift_variants']);
    const refused = await fetch(`${plain.url}/__mock/fixture`, {
      method: 'POST',
      headers: { Authorization: 'Bearer ctl_drift_variants', 'Content-Type': 'application/json' },
      body: readFileSync(file),
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { field: string; message: string };
    expect(body.field).toBe('variants');
    expect(body.message).toContain(
      'variants are chosen when the mock starts and cannot change on a running one (the fixture names overlayCollection, stringIds, this mock runs with none); start the mock with linkgate mock --variant <names>, or linkgate mock --fixture <this file>',
    );
  });
});

describe('linkgate check of the messaging API', { timeout: 120_000 }, () => {
  it('checks it with an empty send the API refuses (no message leaves), and exits 2 for a refused messaging key', async () => {
    const messagingKey = 'gw_live_driftcheck0123456789abcdef';
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet', '--messaging-key', messagingKey]);
    const flags = ['--base-url', mock.url, '--api-key', ADMIN_KEY, '--messaging-base-url', mock.url];
    const [right, wrong] = await Promise.all([
      check([...flags, '--messaging-key', messagingKey, '--json']),
      check([...flags, '--messaging-key', 'gw_live_notthekey0123456789abcdefgh']),
    ]);
    expect(right.code, describeRun(right)).toBe(0);
    const send = (JSON.parse(right.stdout) as CheckReport).operations.find((o) => o.operation === 'messages.send');
    expect(send).toEqual({ operation: 'messages.send', calls: 1, matched: 1, differences: [] });
    expect(wrong.code, describeRun(wrong)).toBe(2);
    expect(wrong.stderr).toContain('The messaging API refused the key (HTTP 401); check --messaging-key');
    expect(wrong.stderr + wrong.stdout).not.toContain('gw_live_notthekey');
  });
});

describe('linkgate check against a drifting server', { timeout: 120_000 }, () => {
  it('reports every planted difference with its field path, and exits 1', async () => {
    const server = await startDriftingServer('drift');
    try {
      const run = await check(['--base-url', server.url, '--api-key', DRIFTING_KEY, '--json']);
      expect(run.code, describeRun(run)).toBe(1);
      const report = JSON.parse(run.stdout) as CheckReport;
      const found = report.operations.flatMap((o) => o.differences.map((d) => [o.operation, d.field]));
      for (const planted of PLANTED) expect(found).toContainEqual([...planted]);
      const id = report.operations.find((o) => o.operation === 'domains.list')?.differences[0];
      expect(id).toMatchObject({ side: 'response', expected: 'an integer', seen: '"12"' });
      // A secret in an unknown field is named, never shown.
      expect(run.stdout + run.stderr).not.toContain(LEAKED_TOKEN);
      expect(run.stdout + run.stderr).not.toContain(DRIFTING_KEY);
      expect(found).toContainEqual(['account.get', 'data.api_token']);
    } finally {
      await server.close();
    }
  });

  it('checks a deployment under a path prefix (--base-url http://host/links) as it checks one at the root', async () => {
    const [atRoot, underPrefix] = await Promise.all([
      startDriftingServer('drift'),
      startDriftingServer('drift', { prefix: '/links' }),
    ]);
    try {
      const [root, prefixed] = await Promise.all([
        check(['--base-url', atRoot.url, '--api-key', DRIFTING_KEY, '--json']),
        check(['--base-url', underPrefix.url, '--api-key', DRIFTING_KEY, '--json']),
      ]);
      expect(root.code, describeRun(root)).toBe(1);
      expect(prefixed.code, describeRun(prefixed)).toBe(1);
      const operations = (run: typeof root) => (JSON.parse(run.stdout) as CheckReport).operations;
      expect(operations(prefixed)).toEqual(operations(root));
      expect(operations(prefixed).map((o) => o.operation)).not.toContain('unknown');
    } finally {
      await Promise.all([atRoot.close(), underPrefix.close()]);
    }
  });

  it('prints a table per operation with the differences', async () => {
    const server = await startDriftingServer('drift');
    try {
      const run = await check(['--base-url', server.url, '--api-key', DRIFTING_KEY]);
      expect(run.code, describeRun(run)).toBe(1);
      expect(run.stdout).toMatch(
        /domains\.list\s+1\s+0\s+response data\.domains\[\]\.id: tolerated by linkgate, differs from the API: expected an integer, seen "12"/,
      );
      expect(run.stdout).toMatch(/splash\.list\s+1\s+0\s+response status: expected HTTP 200.*, seen HTTP 201/);
      expect(run.stdout).toContain('Result: drift in');
    } finally {
      await server.close();
    }
  });

  it('reports what linkgate reads but the API documents otherwise (numeric strings, other date forms, plan fields) as tolerated drift: exit 1, silenced by --ignore', async () => {
    const server = await startDriftingServer('tolerated');
    try {
      const args = ['--base-url', server.url, '--api-key', DRIFTING_KEY];
      const [json, text] = await Promise.all([check([...args, '--json']), check(args)]);
      expect(json.code, describeRun(json)).toBe(1);
      const report = JSON.parse(json.stdout) as CheckReport;
      expect(report.admin).toBe(true);
      const found = report.operations.flatMap((o) =>
        o.differences.map((d) => [o.operation, d.field, d.expected, d.seen, d.kind]),
      );
      expect(found).toEqual(expect.arrayContaining(TOLERATED_VALUES.map((t) => [...t, 'tolerated'])));
      // Nothing else differs: the rest of each answer is as the spec states it.
      expect(found).toHaveLength(TOLERATED_VALUES.length);
      expect(report.tolerated).toBe(TOLERATED_VALUES.length);

      expect(text.code, describeRun(text)).toBe(1);
      expect(text.stdout).toMatch(
        /plans\.list\s+1\s+0\s+response data\[\]\.free: tolerated by linkgate, differs from the API: expected true or false, seen 0/,
      );
      expect(text.stdout).toContain(
        `Result: drift in 5 operation(s); ${TOLERATED_VALUES.length} difference(s) are values linkgate tolerates but the API documents otherwise (exit 1).`,
      );

      // A team that accepts them says so, as for any finding.
      const ignores = TOLERATED_VALUES.flatMap(([op, field]) => ['--ignore', `${op}:${field}`]);
      const accepted = await check([...args, ...ignores]);
      expect(accepted.code, describeRun(accepted)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('silences one field with --ignore, and an operation whole', async () => {
    const server = await startDriftingServer('drift');
    try {
      const run = await check([
        '--base-url',
        server.url,
        '--api-key',
        DRIFTING_KEY,
        '--json',
        '--ignore',
        'domains.list:data.domains[].id',
        '--ignore',
        'splash.list',
      ]);
      const report = JSON.parse(run.stdout) as CheckReport;
      const byOp = (id: string) => report.operations.find((o) => o.operation === id);
      expect(byOp('domains.list')?.differences).toEqual([]);
      expect(byOp('splash.list')?.differences).toEqual([]);
      expect(byOp('account.get')?.differences.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('linkgate check when the deployment cannot be checked (exit 2, a sentence, no stack trace)', {
  timeout: 120_000,
}, () => {
  const cannotRun = (run: Awaited<ReturnType<typeof check>>, message: RegExp) => {
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout + run.stderr).not.toContain(DRIFTING_KEY);
  };

  it('an unreachable URL, a wrong key, an HTML login page, a 10 MB answer, a slow server, a bad flag', async () => {
    const [html, huge, slow, drifting] = await Promise.all([
      startDriftingServer('html-login'),
      startDriftingServer('huge'),
      startDriftingServer('slow'),
      startDriftingServer('drift'),
    ]);
    const port = await closedPort();
    try {
      const [unreachable, wrongKey, login, tooLarge, tooSlow, badFlag] = await Promise.all([
        check(['--base-url', `http://127.0.0.1:${port}`, '--api-key', DRIFTING_KEY]),
        check(['--base-url', drifting.url, '--api-key', 'not-the-key']),
        check(['--base-url', html.url, '--api-key', DRIFTING_KEY]),
        check(['--base-url', huge.url, '--api-key', DRIFTING_KEY]),
        check(['--base-url', slow.url, '--api-key', DRIFTING_KEY, '--timeout', '1']),
        check(['--base-url', 'ftp://x', '--api-key', DRIFTING_KEY]),
      ]);
      cannotRun(
        unreachable,
        /Could not reach http:\/\/127\.0\.0\.1:\d+ for GET \/api\/account \(ECONNREFUSED\): nothing listens there/,
      );
      cannotRun(wrongKey, /refused the API key \(HTTP 403/);
      cannotRun(login, /answered HTTP 200 with text\/html.*not JSON.*check --base-url/);
      cannotRun(tooLarge, /answered more than 5\.0 MB/);
      cannotRun(tooSlow, /did not answer GET \/api\/account within 1 s \(--timeout\)/);
      cannotRun(badFlag, /--base-url must start with http:\/\/ or https:\/\//);
    } finally {
      await Promise.all([html.close(), huge.close(), slow.close(), drifting.close()]);
    }
  });
});

describe('linkgate check given a URL with secrets in it (credentials, a query, the inspector link) refuses it by name and prints none of them', {
  timeout: 120_000,
}, () => {
  it('a user name and password, a query and the banner inspector link with its #token=: exit 2, the address to use, no secret', async () => {
    const token = 'ctl_check_link_token_0123456789';
    const [mock, drifting] = await Promise.all([
      startCli(['--quiet', '--control-token', token]),
      startDriftingServer('drift'),
    ]);
    try {
      const port = new URL(drifting.url).port;
      const inspectorLink = `${mock.url}/#token=${token}`;
      const [credentials, broken, query, link] = await Promise.all([
        check(['--base-url', `http://deploy:PASSW0RD-secret@127.0.0.1:${port}/links`, '--api-key', DRIFTING_KEY]),
        check([
          '--base-url',
          `http://deploy:PASSW0RD-secret@127.0.0.1:${port}:x/`,
          '--api-key',
          DRIFTING_KEY,
          '--json',
        ]),
        check(['--base-url', `${drifting.url}/?access_token=QUERY-secret`, '--api-key', DRIFTING_KEY]),
        check(['--base-url', inspectorLink, '--api-key', DRIFTING_KEY]),
      ]);
      for (const run of [credentials, broken, query, link]) {
        expect(run.code, describeRun(run)).toBe(2);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        for (const secret of ['PASSW0RD-secret', 'QUERY-secret', token]) {
          expect(run.stdout + run.stderr).not.toContain(secret);
        }
      }
      expect(credentials.stderr).toContain(
        `--base-url must not carry a user name or password (http://[hidden]@127.0.0.1:${port}/links): the check signs in with its key alone; give the address, http://127.0.0.1:${port}/links.`,
      );
      expect(broken.stderr).toContain('--base-url must be a full URL starting with http:// or https://');
      expect(query.stderr).toContain(
        `--base-url has a query ("?..."), which is no part of the API's address (the mock's inspector link carries its control token there); give the address alone: ${drifting.url}/.`,
      );
      expect(link.stderr).toContain(`--base-url has a fragment ("#..."), which is no part of the API's address`);
      expect(link.stderr).toContain(`give the address alone: ${mock.url}/.`);
    } finally {
      await drifting.close();
    }
  });
});

describe('docs/guides/checking-a-deployment.md: its tested output blocks are what the CLI prints', {
  timeout: 120_000,
}, () => {
  const marker = '<!-- tested: test/e2e/drift-check.test.ts -->\n```\n';
  const guide = readFileSync(join(root, 'docs/guides/checking-a-deployment.md'), 'utf8');
  /** The guide's tested blocks, in order: plain mock, --write against two variants, drifting server, refused key. */
  const blocks = guide
    .split(marker)
    .slice(1)
    .map((part) => part.slice(0, part.indexOf('\n```')));
  /** Ports differ from run to run; nothing else may. */
  const portless = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').trimEnd();

  it('prints each block as the guide shows it (the ports aside)', async () => {
    expect(blocks).toHaveLength(4);
    const [plainBlock, variantsBlock, driftBlock, refusedBlock] = blocks as [string, string, string, string];
    const [plain, variants, drifting] = await Promise.all([
      startCli(['--admin-key', ADMIN_KEY]),
      startCli(['--admin-key', ADMIN_KEY, '--quiet', '--variant', 'overlayCollection,stringIds']),
      startDriftingServer('drift'),
    ]);
    try {
      const [plainRun, variantsRun, driftRun, refusedRun] = await Promise.all([
        check(['--base-url', plain.url, '--api-key', keysOf(plain).alice as string]),
        check(['--base-url', variants.url, '--api-key', ADMIN_KEY, '--write']),
        check(['--base-url', drifting.url, '--api-key', DRIFTING_KEY]),
        check(['--base-url', plain.url, '--api-key', 'not-a-key-of-this-mock']),
      ]);
      expect(portless(plainRun.stdout)).toBe(portless(plainBlock));
      // An excerpt: the variants lines of the run.
      for (const line of variantsBlock.split('\n')) expect(variantsRun.stdout.split('\n')).toContain(line);
      expect(portless(driftRun.stdout)).toBe(portless(driftBlock));
      expect(portless(refusedRun.stderr)).toBe(portless(refusedBlock));
    } finally {
      await drifting.close();
    }
  });
});
