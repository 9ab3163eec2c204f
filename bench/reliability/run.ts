// `npm run reliability`: the reliability suite of issue 11. Runs each part, prints its figures and checks, then the
// summary (requests sent, 5xx, refused-yet-changed-state, forgeries accepted, events lost, peak memory, slowest
// crafted request), and exits 1 when a zero target is not zero or a bound is exceeded.
//
//   npm run reliability                  full size, fixed seed
//   npm run reliability -- --ci          the size CI runs (test/reliability/suite.test.ts runs the same)
//   npm run reliability -- --load        adds the load runs and the connection burst (never in CI)
//   npm run reliability -- --seed 7      another seed
//   npm run reliability -- fuzz sdk      only the parts whose names contain these words
import { cpus, loadavg, totalmem } from 'node:os';
import { connectionBurst } from './connection-burst.js';
import { attackGateway } from './faulty-receivers.js';
import { fixtureLoad } from './fixture-load.js';
import { attackReceivers } from './hostile-deliveries.js';
import { attackHooks } from './hostile-hooks.js';
import { attackSdk } from './hostile-servers.js';
import { inspectorReaders } from './inspector-readers.js';
import { LOAD_SIZES, loadRun } from './load-run.js';
import { fuzzMockApi } from './mock-api-fuzz.js';
import { driftMemory } from './proxy-memory.js';
import { redisFaults } from './redis-faults.js';
import { DEFAULT_SEED, holds, type PartOptions, type PartReport, printReport } from './report.js';

/** The parts, in the order they run, by the word that selects them. */
export const PARTS: Record<string, (options: PartOptions) => Promise<PartReport>> = {
  fuzz: fuzzMockApi,
  deliveries: attackReceivers,
  sdk: attackSdk,
  hooks: attackHooks,
  gateway: attackGateway,
  inspector: inspectorReaders,
  fixture: fixtureLoad,
  redis: redisFaults,
  'drift-memory': driftMemory,
};

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : DEFAULT_SEED;
const words = args.filter((a, i) => !a.startsWith('--') && !(seedAt >= 0 && i === seedAt + 1));
const options: PartOptions = { size: flag('--ci') ? 'ci' : 'full', seed };

console.log(`# linkgate reliability suite (${options.size} size, seed ${seed})`);
console.log(
  `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ` +
    `${Math.round(totalmem() / 1024 ** 3)} GiB RAM, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
const reports: PartReport[] = [];
const selected = Object.entries(PARTS).filter(([word]) => words.length === 0 || words.some((w) => word.includes(w)));
for (const [word, part] of selected) {
  const started = performance.now();
  try {
    const report = await part(options);
    report.figures['part took'] = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    reports.push(report);
    printReport(report);
  } catch (error) {
    // A part that cannot run is a failed check, not a crash that hides the other parts.
    const report: PartReport = {
      part: word,
      figures: {},
      checks: [
        { name: 'the part ran to its end', value: 1, max: 0, examples: [String((error as Error)?.stack ?? error)] },
      ],
    };
    reports.push(report);
    printReport(report);
  }
}
for (const size of flag('--load') ? LOAD_SIZES : []) {
  const report = await loadRun({ ...options, ...size });
  reports.push(report);
  printReport(report);
}
if (flag('--load')) {
  // Issue 31 item 13: 5,000 connections at once, the mock beside a bare node:http server in the same run.
  const report = await connectionBurst(options);
  reports.push(report);
  printReport(report);
}

const all = reports.flatMap((r) => r.checks);
const sum = (pattern: RegExp) => all.filter((c) => pattern.test(c.name)).reduce((n, c) => n + c.value, 0);
const max = (pattern: RegExp) => Math.max(0, ...all.filter((c) => pattern.test(c.name)).map((c) => c.value));
const sent = reports.reduce((n, r) => n + (Number(r.figures['requests sent']) || 0), 0);
console.log('\n## Summary');
console.log(`  requests sent: ${sent.toLocaleString('en-US')}`);
console.log(`  5xx answers: ${sum(/^5xx/)}`);
console.log(`  refused-yet-changed-state: ${sum(/refused requests that changed/)}`);
console.log(`  forgeries accepted: ${sum(/forgeries accepted|stale or future/)}`);
console.log(`  events lost: ${sum(/events lost/)}`);
console.log(`  peak memory growth: ${max(/memory growth/).toFixed(1)} MB`);
console.log(`  slowest crafted request: ${Math.round(max(/slowest crafted request/))} ms`);
const failed = all.filter((c) => !holds(c));
console.log(
  `\n${all.length} checks, ${failed.length} failed${failed.length ? `: ${failed.map((c) => c.name).join('; ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);
