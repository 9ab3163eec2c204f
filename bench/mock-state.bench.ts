// What keeping a state file costs (issue 26): throughput of `linkgate mock --state <file>` against the same server in
// memory only, on a workload where every other request changes the state (so every interval has a write to make) and
// the state is large enough for a write to cost something (a fixture of 2,000 domains, ~0.5 MB on disk). Both servers
// run --quiet in child processes; autocannon runs here. Target: the ratio with/without at least 0.9.
//
// Then the snapshot itself, in-process: 20,000 rows (10,000 domains and 10,000 QR codes) exported to JSON text and
// restored from it, target under 1 s each.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeBulkSnapshot } from '../test/mock/support/bulk-state.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const TOKEN = 'ctl-bench-state';
const USER_KEY = 'bench-state-user-key';
const CONNECTIONS = 20;
const WARMUP_S = 1;
const DURATION_S = 3;
const ROUNDS = 2;
const RATIO_TARGET = 0.9;

type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: { method: string; path: string; headers: Record<string, string>; body?: string }[];
}) => Promise<{ requests: { total: number }; non2xx: number; errors: number }>;

const dir = mkdtempSync(join(tmpdir(), 'linkgate-bench-state-'));
try {
  await throughput();
  snapshotTimes();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function throughput(): Promise<void> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const fixture = join(dir, 'fixture.json');
  const domains = Array.from({ length: 2_000 }, (_, i) => ({
    owner: 'bench_user',
    domain: `https://d${i}.bench.example`,
  }));
  writeFileSync(
    fixture,
    JSON.stringify({ users: [{ username: 'bench_user', email: 'b@example.com', apikey: USER_KEY }], domains }),
  );
  const stateFile = join(dir, 'state.json');
  const memory = await server(['--fixture', fixture]);
  const kept = await server(['--fixture', fixture, '--state', stateFile]);
  const requests: Parameters<Autocannon>[0]['requests'] = [
    { method: 'GET', path: '/api/domains?limit=15', headers: { authorization: `Bearer ${USER_KEY}` } },
    {
      method: 'POST',
      path: '/__mock/faults',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"times":1}',
    },
  ];
  const totals = new Map([memory, kept].map((s) => [s, 0]));
  try {
    const run = async (s: Server, duration: number, count: boolean) => {
      const r = await autocannon({ url: s.url, connections: CONNECTIONS, duration, requests });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      if (count) totals.set(s, totals.get(s)! + r.requests.total);
    };
    for (const s of [memory, kept]) await run(s, WARMUP_S, false);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so drift hits both alike.
      for (const s of round % 2 === 0 ? [memory, kept] : [kept, memory]) await run(s, DURATION_S, true);
    }
  } finally {
    memory.process.kill();
    kept.process.kill();
  }
  const rate = (s: Server) => totals.get(s)! / (ROUNDS * DURATION_S);
  const ratio = rate(kept) / rate(memory);
  console.log(
    `Throughput, half reads and half state changes, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION_S} s each:`,
  );
  console.log(
    `  in memory ${fmt(rate(memory))} req/s   --state ${fmt(rate(kept))} req/s (file ${kb(statSync(stateFile).size)})`,
  );
  console.log(
    `  ratio --state / memory ${ratio.toFixed(2)} (target >= ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'PASS' : 'MISS'}`,
  );
}

function snapshotTimes(): void {
  const { exportMs, restoreMs, bytes } = timeBulkSnapshot();
  console.log(`\nSnapshot of 20,000 rows (${kb(bytes)} of JSON), in-process:`);
  console.log(
    `  export ${exportMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms (target < 1000 each) ${exportMs < 1000 && restoreMs < 1000 ? 'PASS' : 'MISS'}`,
  );
}

interface Server {
  url: string;
  process: ChildProcess;
}

/** `linkgate mock --quiet` from the sources, in its own process. */
async function server(flags: string[]): Promise<Server> {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'mock/cli.ts',
      'mock',
      '--port',
      '0',
      '--quiet',
      '--rate-limit',
      'off',
      '--control-token',
      TOKEN,
      ...flags,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`linkgate mock exited with ${code}: ${out}`)));
  });
  return { url, process: proc };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US').padStart(7);
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
}
