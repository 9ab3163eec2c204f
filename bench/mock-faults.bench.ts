// What armed faults cost the calls they do not name (issue 32): throughput of the mock's unfaulted path, in-process
// (`backend.handle`, where the fault look-up is the largest share of a call), with 1,000 faults armed for other
// operations against none. The faults are indexed by operation, so a call of an operation none names costs one map
// look-up. Target: the ratio with/without at least 0.95.
import { createBackendCore } from '../mock/backend.js';
import type { MockRequest } from '../mock/http/types.js';

const RATIO_TARGET = 0.95;
const FAULTS = 1_000;
const CALLS = 5_000;
const ROUNDS = 21;

const plain = createBackendCore({ seed: 'demo', rateLimit: false });
const armed = createBackendCore({ seed: 'demo', rateLimit: false });
// Other operations than the measured one, named every way a fault can name them.
const others = ['listDomains', 'createQrCode', 'listPixels', 'deletePixel', 'sendMessage', 'listUsers'];
armed.faults.plan({
  seed: 1,
  faults: Array.from({ length: FAULTS }, (_, i) =>
    i % 3 === 0
      ? { path: '/api/qr/*', fault: 'status', status: 500, times: 'always' }
      : i % 3 === 1
        ? { operation: others[i % others.length], fault: 'reset', chance: 0.5, times: 'always' }
        : { method: 'DELETE', fault: 'latency', ms: 10, times: 'always' },
  ),
});
if (armed.faults.size !== FAULTS) throw new Error(`expected ${FAULTS} faults armed, got ${armed.faults.size}`);

const request = (core: typeof plain): MockRequest => ({
  method: 'GET',
  path: '/api/account',
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${core.adminKey}` },
  body: undefined,
  origin: 'http://localhost',
});

async function rate(core: typeof plain): Promise<number> {
  const req = request(core);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const res = await core.handle(req);
    if (res.status !== 200 || res.fault) throw new Error(`unfaulted call answered ${res.status}`);
  }
  return CALLS / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
// Warm both up, then measure in pairs, alternating which goes first: each pair's ratio sees the same load (the
// machine is shared), and the median pair is the figure.
await rate(plain);
await rate(armed);
const without: number[] = [];
const withFaults: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const first = round % 2 === 0 ? plain : armed;
  const a = await rate(first);
  const b = await rate(first === plain ? armed : plain);
  const [none, faulted] = first === plain ? [a, b] : [b, a];
  without.push(none);
  withFaults.push(faulted);
  ratios.push(faulted / none);
}
const ratio = median(ratios);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
console.log(`Unfaulted GET /api/account in-process, ${ROUNDS} pairs of ${CALLS} calls each (medians):`);
console.log(`  no faults armed                         ${fmt(median(without))} calls/s`);
console.log(`  ${FAULTS} faults armed for other operations ${fmt(median(withFaults))} calls/s`);
console.log(
  `  ratio armed / none ${ratio.toFixed(3)} (median of the pairs; target >= ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'PASS' : 'MISS'}`,
);
