// A backend with 20,000 rows and the time its snapshot takes out and back in: what issue 26 holds to 1 s each, shared
// by test/mock/control/snapshot.test.ts and bench/mock-state.bench.ts so both measure the same thing.
import { createMockBackend } from 'linkgate/mock';

/** Times a snapshot of 20,000 rows (10,000 domains, 10,000 QR codes) exported to JSON text and restored from it. */
export function timeBulkSnapshot(): { exportMs: number; restoreMs: number; bytes: number; rows: number } {
  const backend = createMockBackend({ rateLimit: false });
  const owner = backend.store.addUser({ username: 'bulk_user', email: 'bulk@example.com' });
  for (let i = 0; i < 10_000; i++) backend.store.addDomain(owner.id, { domain: `https://d${i}.bulk.example` });
  for (let i = 0; i < 10_000; i++) backend.store.addQr(owner.id, { type: 'link', data: `https://bulk.example/${i}` });
  let t = performance.now();
  const text = JSON.stringify(backend.snapshot());
  const exportMs = performance.now() - t;
  const target = createMockBackend();
  t = performance.now();
  target.restore(JSON.parse(text));
  const restoreMs = performance.now() - t;
  return { exportMs, restoreMs, bytes: text.length, rows: target.store.domains.size + target.store.qrs.size };
}
