// Part `drift-memory`: the peak memory of the drift commands, each in its own process, under what issue 31 (item 15)
// sent them: `linkgate proxy` with 200 answers of 4.9 MB in flight at once (1.2 GB before the copy budget), and
// `linkgate check` against a deployment whose lists are 2 MB of nested arrays (1.17 GB before the depth limit).
// Peak RSS is the kernel's own high-water mark (VmHWM), read while the process runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { PartOptions, PartReport } from './report.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Peak RSS either command may reach under its attack. */
export const DRIFT_PEAK_BOUND_MB = 400;

/** The kernel's high-water mark of the process's resident memory, in MB (0 once it has ended). */
function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Keeps the highest peak read until the process ends. */
function watchPeak(child: ChildProcess): { peak(): number; stop(): void } {
  let peak = 0;
  const read = () => {
    peak = Math.max(peak, peakRssMb(child.pid as number));
  };
  const timer = setInterval(read, 20);
  return {
    peak: () => {
      read();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads a whole answer and resolves with its size. */
function fetchSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
      });
      res.on('end', () => resolve(size));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `linkgate proxy` with `answers` answers of 4.9 MB in flight at once. */
async function proxyUnderLargeAnswers(answers: number): Promise<{ peakMb: number; whole: number; notChecked: number }> {
  const body = Buffer.from(JSON.stringify({ error: 0, data: { note: 'x'.repeat(4.9 * 1_048_576) } }));
  const upstream = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  const upstreamUrl = await listen(upstream);
  const proxy = cli(['proxy', '--port', '0', '--upstream', upstreamUrl]);
  let out = '';
  proxy.stdout?.on('data', (d) => {
    out += d;
  });
  const watch = watchPeak(proxy);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = /listening on (http:\/\/\S+),/.exec(out);
        if (match) resolve(match[1] as string);
      };
      proxy.stdout?.on('data', check);
      proxy.on('exit', () => reject(new Error(`the proxy ended: ${out}`)));
    });
    const sizes = await Promise.all(Array.from({ length: answers }, () => fetchSize(`${url}/api/account`)));
    // The checks run after the answers went out: wait for the last one before reading the peak.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const peakMb = watch.peak();
    proxy.kill('SIGTERM');
    await new Promise((resolve) => proxy.on('close', resolve));
    const notChecked = Number(/Not checked: (\d+)/.exec(out)?.[1] ?? 0);
    return { peakMb, whole: sizes.filter((s) => s === body.length).length, notChecked };
  } finally {
    watch.stop();
    proxy.kill('SIGKILL');
    upstream.close();
  }
}

/** `linkgate check` against a deployment whose every list answer is `depth` nested arrays. */
async function checkUnderDeepAnswers(
  depth: number,
): Promise<{ peakMb: number; code: number | null; reported: boolean }> {
  const deep = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const deployment = createServer((req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '29',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
    });
    if ((req.url ?? '').startsWith('/api/account')) {
      res.end(
        '{"error":0,"data":{"id":7,"email":"a@example.com","username":"abcd","avatar":"","status":"free","expires":null,"registered":"2026-01-01 00:00:00"}}',
      );
    } else
      res.end(
        `{"error":"0","data":{"result":1,"perpage":15,"currentpage":1,"nextpage":null,"maxpage":1,"domains":${deep}}}`,
      );
  });
  const url = await listen(deployment);
  const check = cli(['check', '--base-url', url, '--api-key', 'drift-memory-key']);
  let out = '';
  check.stdout?.on('data', (d) => {
    out += d;
  });
  const watch = watchPeak(check);
  try {
    const code = await new Promise<number | null>((resolve) => check.on('exit', (c) => resolve(c)));
    return { peakMb: watch.peak(), code, reported: out.includes('nested deeper than 64 levels') };
  } finally {
    watch.stop();
    deployment.close();
  }
}

/** Runs both attacks and judges the peaks. */
export async function driftMemory(options: PartOptions = {}): Promise<PartReport> {
  const answers = options.size === 'ci' ? 40 : 200;
  const proxy = await proxyUnderLargeAnswers(answers);
  const check = await checkUnderDeepAnswers(1_000_000);
  return {
    part: `drift commands' memory (linkgate proxy with ${answers} answers of 4.9 MB at once; linkgate check against 2 MB nested list answers)`,
    figures: {
      'requests sent': answers,
      'proxy: answers forwarded whole': `${proxy.whole} of ${answers}`,
      'proxy: not checked (body over budget)': proxy.notChecked,
      'proxy: peak RSS': `${proxy.peakMb.toFixed(0)} MB`,
      'check: exit code': String(check.code),
      'check: peak RSS': `${check.peakMb.toFixed(0)} MB`,
    },
    checks: [
      { name: 'proxy answers not forwarded whole', value: answers - proxy.whole, max: 0 },
      { name: 'proxy peak RSS', value: proxy.peakMb, max: DRIFT_PEAK_BOUND_MB, unit: 'MB' },
      { name: 'check peak RSS', value: check.peakMb, max: DRIFT_PEAK_BOUND_MB, unit: 'MB' },
      { name: 'check runs that did not report the nesting', value: check.reported ? 0 : 1, max: 0 },
    ],
  };
}
