// Part 5 (`--load`, never in CI): a short load run of the standalone server as users start it (`linkgate mock` from
// the sources, in its own process) under autocannon: requests per second, errors, latency, and the server's resident
// memory sampled from /proc, early and late, to see that it stays flat.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN_KEY = 'reliability-load-admin-key';
/** Resident memory the server may add between the first and the last quarter of the run. */
export const LOAD_MEMORY_DRIFT_BOUND_MB = 64;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests?: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

/** Runs the load against a fresh `linkgate mock` process and reports. */
export async function loadRun(
  options: PartOptions & { connections?: number; seconds?: number } = {},
): Promise<PartReport> {
  const connections = options.connections ?? 200;
  const seconds = options.seconds ?? 20;
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const { child, url } = await startCli();
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(child.pid)), 250);
  try {
    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const result = await autocannon({
      url,
      connections,
      duration: seconds,
      headers,
      requests: [
        { method: 'GET', path: '/api/account' },
        { method: 'GET', path: '/api/domains?limit=15' },
        { method: 'GET', path: '/api/qr?limit=5' },
        { method: 'POST', path: '/api/pixel/add', body: '{"type":"gapixel","name":"load","tag":"G-LOAD1234"}' },
      ],
    });
    clearInterval(sampler);
    const quarter = Math.max(1, Math.floor(samples.length / 4));
    const early = Math.max(...samples.slice(0, quarter));
    const late = Math.max(...samples.slice(-quarter));
    const errors = new Examples();
    for (let i = 0; i < result.errors + result.timeouts; i++) errors.add('connection error or timeout');
    const fiveXx = new Examples();
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      if (Number(code) >= 500) for (let i = 0; i < count; i++) fiveXx.add(`HTTP ${code}`);
    }
    return {
      part: `load run (autocannon, ${connections} connections, ${seconds} s, standalone server in its own process)`,
      figures: {
        'requests sent': result.requests.total,
        'requests per second': Math.round(result.requests.average),
        'latency average / p99': `${result.latency.average.toFixed(1)} / ${result.latency.p99} ms`,
        'non-2xx answers': result.non2xx,
        'server RSS': `${samples[0]?.toFixed(0)} MB at start, ${Math.max(...samples).toFixed(0)} MB peak, ${early.toFixed(0)} MB in the first quarter, ${late.toFixed(0)} MB in the last`,
      },
      checks: [
        zeroCheck('connection errors and timeouts', errors),
        zeroCheck('5xx answers', fiveXx),
        {
          name: 'server memory growth from the first to the last quarter',
          value: Math.max(0, late - early),
          max: LOAD_MEMORY_DRIFT_BOUND_MB,
          unit: 'MB',
        },
      ],
    };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
  }
}

async function startCli(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'mock/cli.ts',
      'mock',
      '--port',
      '0',
      '--seed',
      'demo',
      '--rate-limit',
      'off',
      '--admin-key',
      ADMIN_KEY,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`linkgate mock exited with ${code} before listening: ${out}`)));
  });
  return { child, url };
}

/** Resident memory of a process in MB (Linux /proc; NaN elsewhere). */
function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}
