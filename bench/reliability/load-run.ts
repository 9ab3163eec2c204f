// Part 5 (`--load`, never in CI): load runs of the standalone server as users start it (`linkgate mock` from the
// sources, in its own process, logging every request) under autocannon, at 200 connections for 20 s and at 5,000 for
// 60 s: requests per second, errors, latency, the kernel's listen-overflow counter, and the server's resident memory
// sampled from /proc, early and late, to see that it stays flat.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const ADMIN_KEY = 'reliability-load-admin-key';
/** The sizes `--load` runs, one after the other. */
export const LOAD_SIZES = [
  { connections: 200, seconds: 20 },
  { connections: 5_000, seconds: 60 },
];
/** File descriptors a load run needs besides one per connection (the generator's own, the server's, stdio). */
const SPARE_FDS = 200;
/** Resident memory the server may add between the first and the last quarter of the run. */
export const LOAD_MEMORY_DRIFT_BOUND_MB = 64;

/** What autocannon reports of a run (the figures the load runs read). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
/** autocannon's programmatic entry, as the load runs call it. */
export type Autocannon = (opts: {
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
  // Both ends hold a descriptor per connection; the server's limit is raised (up to the hard one) by startCli.
  const fds = openFilesLimit('self');
  if (fds < connections + SPARE_FDS) {
    throw new Error(
      `${connections} connections need "ulimit -n" of at least ${connections + SPARE_FDS}; this shell allows ${fds}. Raise it (ulimit -n ${connections + SPARE_FDS}) and run again.`,
    );
  }
  const { child, url } = await startCli(connections + SPARE_FDS);
  const overflowsBefore = listenOverflows();
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
    const overflows = listenOverflows() - overflowsBefore;
    const quarter = Math.max(1, Math.floor(samples.length / 4));
    const early = Math.max(...samples.slice(0, quarter));
    const late = Math.max(...samples.slice(-quarter));
    const errors = new Examples();
    // autocannon's `errors` counts its timeouts too.
    for (let i = 0; i < result.timeouts; i++) errors.add('timeout (no answer within 10 s)');
    for (let i = result.timeouts; i < result.errors; i++) errors.add('connection error');
    const fiveXx = new Examples();
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      if (Number(code) >= 500) for (let i = 0; i < count; i++) fiveXx.add(`HTTP ${code}`);
    }
    return {
      part: `load run (autocannon, ${connections} connections, ${seconds} s, standalone server in its own process)`,
      figures: {
        'requests sent': result.requests.total,
        'requests per second': Math.round(result.requests.average),
        'latency average / p99 / max': `${result.latency.average.toFixed(1)} / ${result.latency.p99} / ${result.latency.max} ms`,
        'non-2xx answers': result.non2xx,
        'errors (timeouts among them)': `${result.errors} (${result.timeouts})`,
        "kernel listen overflows during the run (the whole machine's counter)": Number.isNaN(overflows)
          ? 'unknown (no /proc/net/netstat)'
          : overflows,
        'server open-files limit': openFilesLimit(child.pid),
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

/** Starts `linkgate mock` (demo seed, rate limit off, the load key as admin key) with `fds` open files allowed. */
export async function startCli(fds = 1024): Promise<{ child: ChildProcess; url: string; banner: string }> {
  // Through sh so the server's open-files limit can be raised (within the hard limit) as a user's shell would.
  const node = [
    process.execPath,
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
  ];
  const quoted = node.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('sh', ['-c', `ulimit -n ${fds} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec ${quoted}`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const banner = await new Promise<string>((resolve, reject) => {
    let out: string | undefined = '';
    child.stdout!.on('data', (d) => {
      // Only the banner is kept; the request log that follows is read and dropped.
      if (out === undefined) return;
      out += d;
      if (out.includes('Stop with Ctrl+C.')) {
        resolve(out);
        out = undefined;
      }
    });
    child.on('exit', (code) => reject(new Error(`linkgate mock exited with ${code} before listening: ${out}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
  return { child, url, banner };
}

/** The soft open-files limit of a process (`self` or a pid), from /proc; Infinity where it cannot be read. */
export function openFilesLimit(pid: number | 'self' | undefined): number {
  try {
    const soft = /Max open files\s+(\S+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];
    return soft === undefined || soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The kernel's count of connections dropped because an accept queue was full (TcpExt ListenOverflows). */
export function listenOverflows(): number {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const names = lines.find((l) => l.startsWith('TcpExt:'))!.split(/\s+/);
    const values = lines.filter((l) => l.startsWith('TcpExt:'))[1]!.split(/\s+/);
    return Number(values[names.indexOf('ListenOverflows')]);
  } catch {
    return Number.NaN;
  }
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
