// The SDK's own retry, timeout and rate-limit behaviour against each fault, as users run it: `linkgate mock --faults
// plan.json` in one process, a script on the SDK in another, over loopback. What the SDK did is read back from the
// script's output and from the mock's own count of the calls each fault changed (`GET /__mock/faults`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runCli, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-faults-admin-key-01';
const MESSAGING_KEY = `gw_live_${'f'.repeat(24)}`;
const TOKEN = 'e2e-faults-token';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One operation per scenario, so the scenarios of one run cannot take each other's faults. */
const PLAN = {
  seed: 11,
  faults: [
    { name: 'get 503 twice', operation: 'listDomains', fault: 'status', status: 503, times: 2 },
    { name: 'post 503', operation: 'createDomain', fault: 'status', status: 503, times: 'always' },
    { name: 'get hangs', operation: 'listPixels', fault: 'hang', times: 'always' },
    { name: 'post hangs', operation: 'createPixel', fault: 'hang', times: 'always' },
    { name: 'rate limited', operation: 'getAccount', fault: 'rate-limited', retryAfter: 1 },
    { name: 'get reset', operation: 'listQrCodes', fault: 'reset' },
    { name: 'post reset', operation: 'createQrCode', fault: 'reset', times: 'always' },
    { name: 'get cut', operation: 'listPlans', fault: 'cut-body', bytes: 8 },
    { name: 'broken json', operation: 'listOverlays', fault: 'malformed-json', times: 'always' },
    { name: 'error 1', operation: 'listSplashPages', fault: 'error', message: 'Database is down.' },
    { name: 'gateway down', operation: 'sendMessage', fault: 'unavailable', retryAfter: 1, times: 'always' },
    { name: 'slow', operation: 'listUsers', fault: 'latency', ms: 400 },
    { name: 'trickle', operation: 'getUser', fault: 'trickle', chunkBytes: 40, intervalMs: 30 },
    { name: 'key refused', operation: 'getQrCode', fault: 'unauthorized', times: 'always' },
    { name: 'put reset late', operation: 'updateAccount', fault: 'reset-after-headers' },
  ],
};

const SCRIPT = `
import { Linkgate, MessagingClient } from 'linkgate';
const client = new Linkgate({ timeout: 600, maxRetries: 2 });
const messaging = new MessagingClient({ apiKey: process.env.MESSAGING_KEY, baseUrl: process.env.LINKGATE_BASE_URL, timeout: 600 });
const results = {};
async function run(name, call) {
  const started = performance.now();
  try {
    await call();
    results[name] = { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    results[name] = { ok: false, error: error.constructor.name, status: error.status ?? null, ms: Math.round(performance.now() - started), message: error.message };
  }
}
await run('get503', () => client.domains.list());
await run('post503', () => client.domains.create({ domain: 'https://faulted.example' }));
await run('getHang', () => client.pixels.list());
await run('postHang', () => client.pixels.create({ type: 'gtmpixel', name: 'x', tag: 'GTM-12345' }));
await run('rateLimited', () => client.account.get());
await run('getReset', () => client.qr.list());
await run('postReset', () => client.qr.create({ type: 'text', data: 'hello' }));
await run('getCut', () => client.plans.list());
await run('brokenJson', () => client.overlays.list());
await run('error1', () => client.splash.list());
await run('send', () => messaging.messages.send({ device_id: 'auto', phone: '15551234567', message: 'hi' }));
await run('slow', () => client.users.list());
await run('trickle', () => client.users.get(1));
await run('keyRefused', () => client.qr.get(1));
await run('putResetLate', () => client.account.update({ email: 'admin@example.com' }));
console.log(JSON.stringify(results));
`;

describe('the SDK in its own process against linkgate mock --faults', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('retries what it should, gives up where it should, and never retries a faulted POST', async () => {
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify(PLAN));
    cli = await startCli([
      '--admin-key',
      ADMIN_KEY,
      '--control-token',
      TOKEN,
      '--messaging-key',
      MESSAGING_KEY,
      '--device',
      'dev_1',
      '--faults',
      plan,
      '--quiet',
      // Without the real limiter's headers: the SDK holds a rate-limited call until the latest reset it was told of,
      // and the real answers before the fault would tell it of a 60 s window.
      '--rate-limit',
      'off',
    ]);
    expect(cli.out()).toContain(`faults: ${PLAN.faults.length} armed from ${plan} (seed 11)`);
    const run = await runProgram(
      { source: SCRIPT },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY, MESSAGING_KEY }, timeoutMs: 90_000 },
    );
    expect(run.code, describeRun(run)).toBe(0);
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    const armed = (await (
      await fetch(`${cli.url}/__mock/faults`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { faults: { name: string; seen: number; fired: number }[]; fired: { name: string }[] };
    const firedBy = (name: string) => armed.fired.filter((f) => f.name === name).length;

    // A GET failing with 503 twice: retried twice, the third answer is the data.
    expect(r.get503).toMatchObject({ ok: true });
    expect(firedBy('get 503 twice')).toBe(2);
    // A POST failing with 503: one attempt, never retried (it may have been applied).
    expect(r.post503).toMatchObject({ ok: false, status: 503 });
    expect(firedBy('post 503')).toBe(1);
    // A GET that never answers: the timeout, then two retries, then the SDK gives up.
    expect(r.getHang).toMatchObject({ ok: false });
    expect(r.getHang.message).toMatch(/no answer within 600 ms/);
    expect(firedBy('get hangs')).toBe(3);
    // A POST that never answers: one attempt, given up at the timeout.
    expect(r.postHang).toMatchObject({ ok: false });
    expect(firedBy('post hangs')).toBe(1);
    // Production's HTTP 200 with error 429: waited out (Retry-After 1 s) and retried.
    expect(r.rateLimited.ok).toBe(true);
    expect(r.rateLimited.ms).toBeGreaterThanOrEqual(900);
    expect(r.rateLimited.ms).toBeLessThan(10_000);
    // A GET whose connection is reset: a connection error, retried.
    expect(r.getReset).toMatchObject({ ok: true });
    expect(firedBy('get reset')).toBe(1);
    // A POST whose connection is reset: not retried.
    expect(r.postReset).toMatchObject({ ok: false, error: 'APIConnectionError' });
    expect(firedBy('post reset')).toBe(1);
    // A body cut short: the SDK sees a failed read and retries the GET.
    expect(r.getCut).toMatchObject({ ok: true });
    expect(firedBy('get cut')).toBe(1);
    // A 200 whose JSON does not parse: an APIError, not retried (the server did answer).
    expect(r.brokenJson).toMatchObject({ ok: false, error: 'APIError', status: 200 });
    expect(firedBy('broken json')).toBe(1);
    // HTTP 200 with error 1: the API's failure, not retried.
    expect(r.error1).toMatchObject({ ok: false, status: 200 });
    expect(r.error1.message).toContain('Database is down.');
    // The messaging gateway's outage answer on a send (a POST): not retried.
    expect(r.send).toMatchObject({ ok: false, status: 503 });
    expect(firedBy('gateway down')).toBe(1);
    // Latency under the timeout, and a trickle: slower, but the data.
    expect(r.slow.ok).toBe(true);
    expect(r.slow.ms).toBeGreaterThanOrEqual(350);
    expect(r.trickle.ok).toBe(true);
    // The API's own refusal of the key (HTTP 403, production's body): an AuthenticationError, not retried.
    expect(r.keyRefused).toMatchObject({ ok: false, error: 'AuthenticationError', status: 403 });
    expect(firedBy('key refused')).toBe(1);
    // A PUT whose connection drops after the headers: a failed read, retried (only POST is not).
    expect(r.putResetLate).toMatchObject({ ok: true });
    expect(firedBy('put reset late')).toBe(1);
  });

  it('refuses to start with a plan it cannot arm, naming the file and the field (exit 2)', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        faults: [
          { operation: 'listDomains', fault: 'status', status: 503 },
          { operation: 'listDomainz', fault: 'reset' },
        ],
      }),
    );
    const refused = await runCli(['mock', '--port', '0', '--faults', bad], { timeoutMs: 30_000 });
    expect(refused.code, describeRun(refused)).toBe(2);
    expect(refused.stderr).toContain(
      `--faults: the plan ${bad} was not armed: faults[1].operation must be an operationId`,
    );
    writeFileSync(bad, '{"faults": [\n  {"fault": "reset",}\n]}');
    const broken = await runCli(['mock', '--port', '0', '--faults', bad], { timeoutMs: 30_000 });
    expect(broken.code, describeRun(broken)).toBe(2);
    expect(broken.stderr).toMatch(/is not valid JSON: line 2, column 21/);
  });
});
