// Part of `--load` (never in CI), issue 31 item 13: 5,000 connections opened at once against a bare node:http server
// and against `linkgate mock`, both asking `listen` for the same accept queue, one after the other in the same run,
// under autocannon: errors, timeouts, the kernel's listen overflows, and the accept queue itself, sampled from
// /proc/net/tcp every 100 ms (how full it got, and for how long it held 1,000 connections or more). The kernel caps
// the queue at net.core.somaxconn (4096 here), below 5,000; connections it drops are retried by their clients only
// after 1, 3, 7 s, and those left waiting in it are not answered until the server accepts them.
//
//   node --import tsx bench/reliability/connection-burst.ts [connections] [seconds]
import { type ChildProcess, spawn } from 'node:child_process';
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
  /** The accept queue's largest length seen, and the seconds from the first to the last sample of 1,000 or more. */
  queue: { max: number; fullSeconds: number } | undefined;
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
  const describe = ({ result, overflows, queue }: BurstFigures) =>
    `${Math.round(result.requests.average)} req/s, ${result.errors} errors (${result.timeouts} timeouts), ` +
    `${Number.isNaN(overflows) ? 'unknown' : overflows} listen overflows, ` +
    `accept queue ${queue ? `up to ${queue.max}, 1,000 or more during ${queue.fullSeconds.toFixed(1)} s` : 'unknown'}, ` +
    `p99 ${result.latency.p99} ms, max ${result.latency.max} ms`;
  return {
    part: `connection burst (autocannon, ${connections} connections opened at once, ${seconds} s, bare node:http then linkgate mock)`,
    figures: {
      'requests sent': bareFigures.result.requests.total + mockFigures.result.requests.total,
      'kernel accept queue cap (net.core.somaxconn)': somaxconn(),
      'bare node:http server': describe(bareFigures),
      'linkgate mock': describe(mockFigures),
    },
    checks: [zeroCheck('linkgate mock: connection errors and timeouts', errors)],
  };
}

async function burst(url: string, connections: number, seconds: number): Promise<BurstFigures> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const before = listenOverflows();
  const port = Number(new URL(url).port);
  // [ms, length]: the generator shares this process, so samples come late under load; their times are kept.
  const samples: [number, number][] = [];
  const sampler = setInterval(() => {
    const length = acceptQueue(port);
    if (length !== undefined) samples.push([performance.now(), length]);
  }, SAMPLE_MS);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
    requests: [{ method: 'GET', path: '/api/account' }],
  });
  clearInterval(sampler);
  const full = samples.filter(([, n]) => n >= 1_000).map(([ms]) => ms);
  const queue =
    samples.length === 0
      ? undefined
      : {
          max: Math.max(...samples.map(([, n]) => n)),
          fullSeconds: full.length === 0 ? 0 : (full.at(-1)! - full[0]!) / 1000,
        };
  return { result, overflows: listenOverflows() - before, queue };
}

/** The accept queue's length of the socket listening on 127.0.0.1:`port` (Linux /proc/net/tcp: rx_queue of a LISTEN row). */
function acceptQueue(port: number): number | undefined {
  try {
    const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n')) {
      const [, address, , state, queues] = line.trim().split(/\s+/);
      if (address === local && state === '0A') return Number.parseInt(queues!.split(':')[1]!, 16);
    }
  } catch {
    // Not Linux: the figure is left out.
  }
  return undefined;
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
