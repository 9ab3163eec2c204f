// Part of `--load` (never in CI), issue 31 item 13: 5,000 connections opened at once against a bare node:http server
// and against `linkgate mock`, both asking `listen` for the same accept queue, one after the other in the same run,
// under autocannon: errors, timeouts, the kernel's listen overflows, and the accept queue itself, sampled every 100 ms
// by a process of its own (how full it got, for how long it held 1,000 connections or more, and how many were still
// waiting in it when the run ended: autocannon counts a timeout only for a request 10 s old before the run ends, so
// a connection never accepted in a 10 s run is no error of its). The kernel caps the queue at net.core.somaxconn
// (4096 here), below 5,000; connections it drops are retried by their clients only after 1, 3, 7 s.
//
//   node --import tsx bench/reliability/connection-burst.ts [connections] [seconds]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LISTEN_BACKLOG } from '../../mock/adapters/node-server.js';
import {
  ADMIN_KEY,
  type Autocannon,
  type AutocannonResult,
  listenOverflows,
  openFilesLimit,
  startCli,
} from './load-run.js';
import { Examples, type PartOptions, type PartReport, printReport, zeroCheck } from './report.js';

/** Descriptors besides one per connection (the generator's own, the server's, stdio). */
const SPARE_FDS = 200;

/** The bare server: node:http answering every request with a small JSON body, listening with the mock's backlog. */
const BARE_SERVER = `
const { createServer } = require('node:http');
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"error":0,"data":{"id":1,"username":"admin"}}');
});
server.listen({ port: 0, host: '127.0.0.1', backlog: ${LISTEN_BACKLOG} }, () =>
  console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/** One target's figures. */
interface BurstFigures {
  result: AutocannonResult;
  overflows: number;
  /**
   * The accept queue's largest length seen, the seconds from the first to the last sample of 1,000 or more, and its
   * length at the end of the run (connections never accepted, so never answered).
   */
  queue: { max: number; fullSeconds: number; atEnd: number } | undefined;
}

/** How often the accept queue is sampled. */
const SAMPLE_MS = 100;

/** Runs the burst against a bare node:http server, then against `linkgate mock`, and reports both. */
export async function connectionBurst(
  options: PartOptions & { connections?: number; seconds?: number } = {},
): Promise<PartReport> {
  const connections = options.connections ?? 5_000;
  const seconds = options.seconds ?? 10;
  const fds = openFilesLimit('self');
  if (fds < connections + SPARE_FDS) {
    throw new Error(
      `${connections} connections need "ulimit -n" of at least ${connections + SPARE_FDS}; this shell allows ${fds}.`,
    );
  }
  // Without ss the queue cannot be read, and the check on connections left in it would pass having measured nothing.
  if (spawnSync('ss', ['-V']).error)
    throw new Error('The connection burst reads the accept queue with ss (iproute2): install it.');
  const measure = async (server: { child: ChildProcess; url: string }) => {
    try {
      return await burst(server.url, connections, seconds);
    } finally {
      server.child.kill('SIGTERM');
    }
  };
  const bareFigures = await measure(await startBare(connections + SPARE_FDS));
  const mockFigures = await measure(await startCli(connections + SPARE_FDS));
  const errors = new Examples();
  for (let i = 0; i < mockFigures.result.errors; i++) {
    errors.add(i < mockFigures.result.timeouts ? 'timeout (no answer within 10 s)' : 'connection error');
  }
  const waiting = new Examples();
  for (let i = 0; i < (mockFigures.queue?.atEnd ?? 0); i++) waiting.add('never accepted during the run');
  const describe = ({ result, overflows, queue }: BurstFigures) =>
    `${Math.round(result.requests.average)} req/s, ${result.errors} errors (${result.timeouts} timeouts), ` +
    `${Number.isNaN(overflows) ? 'unknown' : overflows} listen overflows, ` +
    `accept queue ${queue ? `up to ${queue.max}, 1,000 or more during ${queue.fullSeconds.toFixed(1)} s, ${queue.atEnd} still waiting at the end` : 'unknown'}, ` +
    `p99 ${result.latency.p99} ms, max ${result.latency.max} ms`;
  return {
    part: `connection burst (autocannon, ${connections} connections opened at once, ${seconds} s, bare node:http then linkgate mock)`,
    figures: {
      'requests sent': bareFigures.result.requests.total + mockFigures.result.requests.total,
      'kernel accept queue cap (net.core.somaxconn)': somaxconn(),
      'bare node:http server': describe(bareFigures),
      'linkgate mock': describe(mockFigures),
    },
    checks: [
      zeroCheck('linkgate mock: connection errors and timeouts', errors),
      // Listen overflows are reported, not judged: 5,000 connects at once overflow a queue the kernel caps at 4,096
      // unless the server takes 904 in while they come, and their clients retry after 1 s (judged if never answered).
      zeroCheck('linkgate mock: connections left in the accept queue at the end', waiting),
    ],
  };
}

async function burst(url: string, connections: number, seconds: number): Promise<BurstFigures> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const before = listenOverflows();
  const sampler = startQueueSampler(Number(new URL(url).port));
  const started = Date.now();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
    requests: [{ method: 'GET', path: '/api/account' }],
  });
  const samples = await sampler.stop();
  const full = samples.filter(([, n]) => n >= 1_000).map(([ms]) => ms);
  const duringRun = samples.filter(([ms]) => ms <= started + seconds * 1000);
  const queue =
    samples.length === 0
      ? undefined
      : {
          max: Math.max(...samples.map(([, n]) => n)),
          fullSeconds: full.length === 0 ? 0 : (full.at(-1)! - full[0]!) / 1000,
          atEnd: duringRun.at(-1)?.[1] ?? 0,
        };
  return { result, overflows: listenOverflows() - before, queue };
}

/**
 * Samples the accept queue of the socket listening on 127.0.0.1:`port` every 100 ms from a process of its own, with
 * `ss` (netlink, listening sockets only): reading /proc/net/tcp lists every socket, 10,000 lines with both ends of
 * 5,000 connections on loopback, and took 88 ms a read in the generator's own process (issue 31, item 13).
 * Each sample is [epoch ms, length]; none where `ss` is missing.
 */
function startQueueSampler(port: number): { stop(): Promise<[number, number][]> } {
  const script = `
    const { execFileSync } = require('node:child_process');
    const sample = () => {
      try {
        const out = execFileSync('ss', ['-ltnH', 'sport = :${port}'], { encoding: 'utf8' });
        const lengths = out.trim().split('\\n').filter(Boolean).map((l) => Number(l.trim().split(/\\s+/)[1]));
        if (lengths.length > 0) console.log(Date.now() + ' ' + lengths.reduce((a, b) => a + b, 0));
      } catch { process.exit(0); }
    };
    sample();
    setInterval(sample, ${SAMPLE_MS});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    async stop() {
      child.kill('SIGTERM');
      await ended;
      return out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ').map(Number) as [number, number]);
    },
  };
}

/** Starts the bare server in its own process with `fds` open files allowed, as startCli does for the mock. */
async function startBare(fds: number): Promise<{ child: ChildProcess; url: string }> {
  const quoted = [process.execPath, '-e', BARE_SERVER].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('sh', ['-c', `ulimit -n ${fds} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec ${quoted}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the bare server exited with ${code}: ${out}`)));
  });
  return { child, url };
}

/** The kernel's cap on any listen backlog (Linux /proc; unknown elsewhere). */
function somaxconn(): number | string {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
  } catch {
    return 'unknown';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [connections, seconds] = process.argv.slice(2).map(Number);
  printReport(await connectionBurst({ connections: connections || undefined, seconds: seconds || undefined }));
  process.exit(0);
}
