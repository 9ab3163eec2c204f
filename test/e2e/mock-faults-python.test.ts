// A client in another language against the standalone server's wire faults: Python 3's standard library, in its own
// process, sees a hang as its own timeout, a trickle as a slow but whole body, broken JSON as a decode error and a
// reset after the headers as a dropped connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type CliServer, startCli } from './support/processes.js';
import { runCommand } from './support/run-command.js';

const ADMIN_KEY = 'e2e-python-faults-key-01';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-python-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLAN = {
  faults: [
    { operation: 'getAccount', fault: 'hang' },
    { operation: 'listDomains', fault: 'trickle', chunkBytes: 16, intervalMs: 25 },
    { operation: 'listPixels', fault: 'malformed-json' },
    { operation: 'listQrCodes', fault: 'reset-after-headers' },
  ],
};

const CLIENT = `
import http.client, json, os, sys, time, urllib.error, urllib.request
base, key = sys.argv[1], sys.argv[2]
for path in ["/api/account", "/api/domains", "/api/pixels", "/api/qr"]:
    started = time.monotonic()
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    try:
        with urllib.request.urlopen(request, timeout=1) as response:
            status = response.status
            body = json.loads(response.read())
        outcome = f"HTTP {status}, error {body['error']}"
    except urllib.error.URLError as error:
        outcome = type(error.reason).__name__
    except (ConnectionError, http.client.HTTPException, json.JSONDecodeError, TimeoutError) as error:
        outcome = type(error).__name__
    print(f"{path}: {outcome} after {time.monotonic() - started:.1f} s")
`;

describe('a Python client against linkgate mock --faults', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('sees each wire fault as its standard library reports a failing server', async () => {
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(PLAN));
    writeFileSync(join(dir, 'client.py'), CLIENT);
    cli = await startCli(['--admin-key', ADMIN_KEY, '--faults', join(dir, 'plan.json'), '--rate-limit', 'off']);
    const run = await runCommand('python3', ['client.py', cli.url, ADMIN_KEY], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.out).toBe(0);
    const lines = run.out.trim().split('\n');
    // No answer: Python gives up at its own 1 s timeout.
    expect(lines[0]).toMatch(/^\/api\/account: (TimeoutError|timeout) after 1\.\d s$/);
    // A trickle: the whole answer, slowly (16 bytes every 25 ms).
    expect(lines[1]).toMatch(/^\/api\/domains: HTTP 200, error 0 after \d+\.\d s$/);
    expect(Number(/after (\S+) s/.exec(lines[1]!)![1])).toBeGreaterThanOrEqual(0.1);
    // A whole answer whose JSON is cut: a decode error, not a connection error.
    expect(lines[2]).toMatch(/^\/api\/pixels: JSONDecodeError after/);
    // Headers, then the connection reset: the read fails.
    expect(lines[3]).toMatch(/^\/api\/qr: (ConnectionResetError|IncompleteRead|RemoteDisconnected) after/);
  });
});
