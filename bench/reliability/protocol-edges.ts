// HTTP edges of the mock that the adversarial run found (issue 11, minor findings): HEAD where GET exists, bodies
// declared in a charset the mock cannot read, and uploads over the 1 MB limit, whose 413 the client must be able to
// read (not a reset). Each refused request must leave stored state as it was.
import type { BackendCore } from '../../mock/backend.js';
import type { Operation } from './api-operations.js';
import { Examples } from './report.js';

/** What the edges found: one list of examples per rule. */
export interface EdgeFindings {
  sent: number;
  headRefused: Examples;
  charsetAccepted: Examples;
  oversizeUnreadable: Examples;
  changedState: Examples;
}

/** Probes the edges against a running mock with `key` (a key that may call every GET without parameters). */
export async function probeProtocolEdges(
  base: string,
  backend: BackendCore,
  key: string,
  operations: Operation[],
  snapshot: () => string,
): Promise<EdgeFindings> {
  const found: EdgeFindings = {
    sent: 0,
    headRefused: new Examples(),
    charsetAccepted: new Examples(),
    oversizeUnreadable: new Examples(),
    changedState: new Examples(),
  };
  const auth = { authorization: `Bearer ${key}` };
  for (const op of operations) {
    if (op.method !== 'GET' || op.parameters.some((p) => p.in === 'path') || op.security !== 'apiKey') continue;
    const res = await fetch(`${base}${op.path}`, { method: 'HEAD', headers: auth });
    found.sent++;
    if (res.status === 405) found.headRefused.add(`HEAD ${op.path} answered 405 where GET exists`);
  }
  const body = JSON.stringify({ domain: 'https://go.charset.example' });
  for (const [charset, bytes] of [
    ['utf-16', Buffer.from(body, 'utf16le')],
    ['utf-16', Buffer.from(body)],
    ['iso-8859-1', Buffer.from(body, 'latin1')],
    ['utf-32', Buffer.from(body)],
  ] as const) {
    backend.reset();
    const before = snapshot();
    const res = await fetch(`${base}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `application/json; charset=${charset}` },
      body: bytes,
    });
    const text = await res.text();
    found.sent++;
    if (res.status < 400) found.charsetAccepted.add(`charset=${charset} answered ${res.status}: ${text.slice(0, 100)}`);
    if (snapshot() !== before) found.changedState.add(`POST /api/domain/add with charset=${charset}`);
  }
  for (const [size, declared] of [
    [1_100_000, true],
    [4_000_000, true],
    [16_000_000, true],
    [2_000_000, false],
  ] as const) {
    backend.reset();
    const before = snapshot();
    const pad = 'x'.repeat(size);
    const payload = `{"domain":"https://go.big.example","pad":"${pad}"}`;
    const init: RequestInit & { duplex?: 'half' } = declared
      ? { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: payload }
      : {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: new Blob([payload]).stream(),
          duplex: 'half',
        };
    const what = `${(size / 1e6).toFixed(1)} MB upload ${declared ? 'with its length declared' : 'chunked'}`;
    try {
      const res = await fetch(`${base}/api/domain/add`, init);
      await res.text();
      if (res.status !== 413) found.oversizeUnreadable.add(`${what} answered ${res.status}, not 413`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      found.oversizeUnreadable.add(`${what}: the client read ${cause} instead of the 413`);
    }
    found.sent++;
    if (snapshot() !== before) found.changedState.add(what);
  }
  backend.reset();
  return found;
}
