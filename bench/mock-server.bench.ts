// Standalone mock server throughput and start-up, each against its floor measured in the same run.
//
// Throughput: requests per second of `linkgate mock` (bundled as tsup ships it; demo seed, rate limit off) for two
// management reads, in its default mode (a log line per request, to a file) and with --quiet, side by side with a bare
// node:http server that answers the very same bytes and headers (captured from the mock first). Each server runs in
// its own child process; autocannon (20 connections) runs in this process, so the load generator never shares an
// event loop with the server it measures. Printed as ratios: default / bare, quiet / bare, and default / quiet (what
// the request log costs, issue 23: at most 10 %).
//
// Start-up: wall time from spawning `linkgate mock --port 0 --seed demo` (built by tsup.config.ts, as published) to its
// first 200, against a bare node:http script started the same way, the two spawned in turns so drifting load hits both
// alike; the ratio of the medians (issue 23: at most 1.5). Also the first start with an empty compile cache.
// `node --import tsx bench/mock-server.bench.ts startup` runs the start-up part alone.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../test/e2e/support/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const cacheDir = `${root}node_modules/.cache/linkgate-bench`;

const ENDPOINTS = ['/api/account', '/api/domains?limit=15'] as const;
const CONNECTIONS = 20;
const WARMUP_S = 1;
const DURATION_S = 3;
const ROUNDS = 2;
/** Default mode (logging) at least 0.90x a bare node:http server's throughput (issue 23; 0.5 before). */
const RATIO_TARGET = 0.9;
/** The request log may cost at most 10 % of the quiet server's throughput. */
const LOG_RATIO_TARGET = 0.9;
/** Start-up at most 1.5 times a bare node:http script's. */
const STARTUP_RATIO_TARGET = 1.5;
const STARTUP_RUNS = 11;
const ADMIN_KEY = 'bench-admin-key';

interface Captured {
  status: number;
  headers: [string, string][];
  body: string;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const mode = process.argv[2];
if (mode === 'serve-bare') await serveBare(JSON.parse(process.argv[3]!) as Record<string, Captured>);
else if (mode === 'startup') await startup(await buildCli(`${cacheDir}/cli`));
else await orchestrate();

/** Child: the floor, a bare node:http server answering each captured URL with the captured bytes and headers. */
async function serveBare(answers: Record<string, Captured>): Promise<void> {
  const routes = new Map(
    Object.entries(answers).map(([url, a]) => [url, { ...a, body: Buffer.from(a.body, 'base64') }] as const),
  );
  const server = createServer((req, res) => {
    const answer = routes.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers.flat());
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
}

async function orchestrate(): Promise<void> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const cli = await buildCli(`${cacheDir}/cli`);
  const logFile = `${cacheDir}/mock-request-log.txt`;
  const mock = await cliServer(cli, [], logFile);
  const quiet = await cliServer(cli, ['--quiet'], `${cacheDir}/mock-quiet.txt`);
  const headers = { authorization: `Bearer ${mock.info.key}` };
  const captured: Record<string, Captured> = {};
  for (const path of ENDPOINTS) captured[path] = await capture(`${mock.info.url}${path}`, headers);
  const bare = await child(['serve-bare', JSON.stringify(captured)]);
  bare.info.key = mock.info.key;

  console.log(
    `Throughput: autocannon, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION_S} s per server after ${WARMUP_S} s warm-up;`,
  );
  console.log(
    'servers in child processes, load generator in this process. linkgate mock (bundled): demo seed, rate limit off;',
  );
  console.log('default mode logs a line per request to a file; --quiet logs nothing.');
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(`Load average before the run: ${load.join(' ')} (figures are noisy when it exceeds the core count).\n`);
  const rows: { path: string; mock: Side; quiet: Side; bare: Side }[] = [];
  try {
    for (const path of ENDPOINTS) {
      const run = async (server: Server, duration: number, side?: Side) => {
        const cpuBefore = cpuMs(server.process.pid);
        // Each CLI generated its own keys: every server is asked with the key it printed.
        const auth = { authorization: `Bearer ${server.info.key}` };
        const r = await autocannon({
          url: `${server.info.url}${path}`,
          connections: CONNECTIONS,
          duration,
          headers: auth,
        });
        const cpu = cpuMs(server.process.pid) - cpuBefore;
        if (r.non2xx > 0 || r.errors > 0)
          throw new Error(`${server.info.url}${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        if (side) {
          side.requests += r.requests.total;
          side.seconds += duration;
          side.cpuMs += cpu;
        }
      };
      const sides = [
        { server: mock, side: { requests: 0, seconds: 0, cpuMs: 0 } },
        { server: quiet, side: { requests: 0, seconds: 0, cpuMs: 0 } },
        { server: bare, side: { requests: 0, seconds: 0, cpuMs: 0 } },
      ];
      for (const { server } of sides) await run(server, WARMUP_S);
      // Rotate the order each round so drift (other load, GC of the generator) hits every side alike.
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < sides.length; i++) {
          const { server, side } = sides[(i + round) % sides.length]!;
          await run(server, DURATION_S, side);
        }
      }
      rows.push({ path, mock: sides[0]!.side, quiet: sides[1]!.side, bare: sides[2]!.side });
    }
  } finally {
    for (const server of [mock, quiet, bare]) server.process.kill();
  }
  const rate = (side: Side) => side.requests / side.seconds;
  for (const { path, mock: m, quiet: q, bare: b } of rows) {
    const ratio = rate(m) / rate(b);
    const logRatio = rate(m) / rate(q);
    console.log(
      `GET ${path.padEnd(22)} mock ${fmt(rate(m))} req/s  --quiet ${fmt(rate(q))} req/s  bare node:http ${fmt(rate(b))} req/s`,
    );
    console.log(
      `    ratio default/bare ${ratio.toFixed(2)} (target >= ${RATIO_TARGET}) ${verdict(ratio >= RATIO_TARGET)}  quiet/bare ${(rate(q) / rate(b)).toFixed(2)}  log cost: default/quiet ${logRatio.toFixed(2)} (target >= ${LOG_RATIO_TARGET}) ${verdict(logRatio >= LOG_RATIO_TARGET)}`,
    );
  }
  // Server CPU per request does not depend on whether the generator or the server was the bottleneck.
  console.log('\nServer CPU per answered request (from /proc; load-independent, for diagnosis):');
  for (const { path, mock: m, quiet: q, bare: b } of rows) {
    const us = (side: Side) => (side.cpuMs * 1000) / side.requests;
    if (!Number.isFinite(us(m)) || us(m) <= 0) {
      console.log('  (no /proc on this system)');
      break;
    }
    console.log(
      `GET ${path.padEnd(22)} mock ${us(m).toFixed(1)} µs  --quiet ${us(q).toFixed(1)} µs  bare ${us(b).toFixed(1)} µs  ratio bare/mock ${(us(b) / us(m)).toFixed(2)}`,
    );
  }
  const logged = readFileSync(logFile, 'utf8').split('\n').length;
  console.log(`(the default-mode server wrote ${logged.toLocaleString('en-US')} lines to its log file)`);
  await startup(cli);
}

function verdict(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}

/** `linkgate mock` (bundled) with its output going to `file`, as `linkgate mock > file` would; alice's key for reads. */
async function cliServer(cli: string, flags: string[], file: string): Promise<Server> {
  const fd = openSync(file, 'w');
  const proc = spawn(
    process.execPath,
    [cli, 'mock', '--port', '0', '--seed', 'demo', '--rate-limit', 'off', '--admin-key', ADMIN_KEY, ...flags],
    { cwd: root, stdio: ['ignore', fd, 'inherit'] },
  );
  closeSync(fd);
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) => reject(new Error(`linkgate mock exited with ${code}`))),
  );
  for (const started = performance.now(); performance.now() - started < 15_000; ) {
    const banner = readFileSync(file, 'utf8');
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    // alice owns demo domains, so the domains read answers a full page.
    const key = /^\s+alice\s+([0-9a-f]{32})/m.exec(banner)?.[1];
    if (url && key) return { process: proc, info: { url, key } };
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), exited]);
  }
  proc.kill();
  throw new Error(`linkgate mock printed no banner within 15 s: ${readFileSync(file, 'utf8')}`);
}

/** Start-up to first answered request: the published CLI and the floor spawned in turns, medians compared. */
async function startup(cliFile: string): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  // The floor as a user writes it; importing node:http as an ES module also loads undici and zlib (its namespace's
  // getters run). The lean floor takes node:http from process.getBuiltinModule, as the mock does.
  const bare = (load: string) => `${load}
const s = createServer((req, res) => res.end('{"error":0}'));
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
process.on('SIGTERM', () => process.exit(0));
`;
  writeFileSync(`${cacheDir}/bare.mjs`, bare("import { createServer } from 'node:http';"));
  writeFileSync(`${cacheDir}/bare-lean.mjs`, bare("const { createServer } = process.getBuiltinModule('node:http');"));
  const args = ['mock', '--port', '0', '--seed', 'demo', '--admin-key', ADMIN_KEY];
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `\nStart-up to first 200 (median of ${STARTUP_RUNS} spawns each, in turns; load average ${load.join(' ')}):`,
  );
  // One start with an empty compile cache (a temp folder of its own): what the very first `npx linkgate mock` pays.
  const tmp = mkdtempSync(`${cacheDir}/tmp-`);
  const cold = await startupOnce([cliFile, ...args], { TMPDIR: tmp });
  rmSync(tmp, { recursive: true, force: true });
  await startupOnce([cliFile, ...args]); // fills the default cache, as any earlier run on this machine would have
  const [cli, floor, lean] = await inTurns([
    [cliFile, ...args],
    [`${cacheDir}/bare.mjs`],
    [`${cacheDir}/bare-lean.mjs`],
  ]);
  const [tsx] = await inTurns([['--import', 'tsx', `${root}mock/cli.ts`, ...args]]);
  const ratio = median(cli!) / median(floor!);
  console.log(
    `linkgate mock (published build) ${median(cli!).toFixed(0)} ms  bare node:http script ${median(floor!).toFixed(0)} ms  ratio ${ratio.toFixed(2)} (+${(median(cli!) - median(floor!)).toFixed(0)} ms)  (target <= ${STARTUP_RATIO_TARGET}) ${verdict(ratio <= STARTUP_RATIO_TARGET)}`,
  );
  console.log(
    `    against the lean bare script (node:http by getBuiltinModule) ${median(lean!).toFixed(0)} ms: ratio ${(median(cli!) / median(lean!)).toFixed(2)}`,
  );
  console.log(
    `    first start, empty compile cache ${cold.toFixed(0)} ms (one spawn); via tsx (npm start, for reference) ${median(tsx!).toFixed(0)} ms`,
  );
}

/** Spawns each command STARTUP_RUNS times, one of each per round, the order rotating; the times of each. */
async function inTurns(commands: string[][]): Promise<number[][]> {
  const times = commands.map((): number[] => []);
  for (let round = 0; round < STARTUP_RUNS; round++) {
    for (let i = 0; i < commands.length; i++) {
      const at = (i + round) % commands.length;
      times[at]!.push(await startupOnce(commands[at]!));
    }
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Ms from spawning `node <nodeArgs>` to the end of its first answer to GET /api/account (which must be 200). */
async function startupOnce(nodeArgs: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const proc = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${out}`)));
  });
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${url}/api/account`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  const ms = performance.now() - started;
  if (status !== 200) throw new Error(`first answer was ${status}, not 200`);
  proc.kill('SIGTERM');
  await new Promise((resolve) => proc.once('exit', resolve));
  return ms;
}

/** The mock's answer as bytes + headers (minus those node:http adds itself), for the bare server to replay. */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!['date', 'connection', 'keep-alive'].includes(name.toLowerCase()))
            pairs.push([name, res.rawHeaders[i + 1]!]);
        }
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

interface Side {
  requests: number;
  seconds: number;
  cpuMs: number;
}

interface Server {
  process: ChildProcess;
  info: { url: string; key: string };
}

/** User + system CPU time a process has used, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function child(args: string[]): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', self, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line));
    });
    proc.on('exit', (code) => reject(new Error(`server child exited with ${code}`)));
  });
  return { process: proc, info };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US').padStart(7);
}
