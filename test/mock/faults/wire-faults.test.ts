// What a client sees on the wire for each fault the adapter plays: a raw socket (the bytes, and how the connection
// ends) and a plain fetch client, against the standalone server over loopback.
import { connect } from 'node:net';
import { type MockServer, type RequestLogEntry, startMockServer } from 'linkgate/mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Sends one raw request; resolves with every byte received and how the connection ended. */
function rawExchange(url: string, path: string, key: string, timeoutMs = 3_000) {
  const { port } = new URL(url);
  return new Promise<{ bytes: string; end: 'close' | 'reset' | 'timeout'; ms: number }>((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    let bytes = '';
    let done = false;
    const finish = (end: 'close' | 'reset' | 'timeout') => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ bytes, end, ms: performance.now() - started });
    };
    socket.setTimeout(timeoutMs, () => finish('timeout'));
    socket.on('data', (d) => {
      bytes += d.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish(e.code === 'ECONNRESET' ? 'reset' : 'close'));
    socket.on('close', () => finish('close'));
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe('wire faults on the standalone server', () => {
  let server: MockServer;
  let log: RequestLogEntry[] = [];
  beforeEach(async () => {
    const entries: RequestLogEntry[] = [];
    log = entries;
    server = await startMockServer({ seed: 'demo', rateLimit: false, onResponse: (e) => entries.push(e) });
  });
  // The hang test closes its server itself.
  afterEach(() => server.close().catch(() => {}));
  const arm = (fault: Record<string, unknown>) =>
    server.backend.faults.add({ operation: 'getAccount', ...fault } as never);
  const key = () => server.backend.adminKey;

  it('reset: the connection is reset before any byte', async () => {
    arm({ fault: 'reset' });
    const raw = await rawExchange(server.url, '/api/account', key());
    expect(raw).toMatchObject({ bytes: '', end: 'reset' });
    arm({ fault: 'reset' });
    const error = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error.cause?.code ?? error.cause)).toMatch(/ECONNRESET|socket|closed/i);
  });

  it('reset-after-headers: the status line and headers arrive, then the connection drops', async () => {
    arm({ fault: 'reset-after-headers' });
    const raw = await rawExchange(server.url, '/api/account', key());
    expect(raw.bytes).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw.bytes).toMatch(/\r\n\r\n$/);
    expect(raw.end).not.toBe('timeout');
    arm({ fault: 'reset-after-headers' });
    const res = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('cut-body: the whole length is declared, some bytes arrive, then the connection drops', async () => {
    arm({ fault: 'cut-body', bytes: 10 });
    const raw = await rawExchange(server.url, '/api/account', key());
    const [head, body] = raw.bytes.split('\r\n\r\n') as [string, string];
    const declared = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    expect(body).toBe('{"error":0');
    expect(declared).toBeGreaterThan(10);
    arm({ fault: 'cut-body', bytes: 10 });
    const res = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('malformed-json: a whole answer whose body does not parse', async () => {
    arm({ fault: 'malformed-json' });
    const res = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('trickle: the body comes a few bytes at a time', async () => {
    arm({ fault: 'trickle', chunkBytes: 16, intervalMs: 20 });
    const res = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    const reader = res.body!.getReader();
    const arrivals: number[] = [];
    const started = performance.now();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push(performance.now() - started);
      text += new TextDecoder().decode(value);
    }
    expect(JSON.parse(text).data.username).toBe('admin');
    expect(arrivals.length).toBeGreaterThan(3);
    expect(arrivals.at(-1)!).toBeGreaterThanOrEqual(20 * (arrivals.length - 1) * 0.8);
  });

  it('hang: nothing comes until the client gives up; the server still closes at once', async () => {
    arm({ fault: 'hang' });
    const raw = await rawExchange(server.url, '/api/account', key(), 300);
    expect(raw).toMatchObject({ bytes: '', end: 'timeout' });
    arm({ fault: 'hang' });
    const error = await fetch(`${server.url}/api/account`, {
      headers: { authorization: `Bearer ${key()}` },
      signal: AbortSignal.timeout(200),
    }).catch((e) => e);
    expect(error.name).toBe('TimeoutError');
    arm({ fault: 'hang' });
    const pending = fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } }).catch(
      (e) => e,
    );
    await new Promise((r) => setTimeout(r, 50));
    const closing = performance.now();
    await server.close();
    expect(performance.now() - closing).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(TypeError);
  });

  it('writes in the request log that a fault answered, and which rule', async () => {
    server.backend.faults.add({ operation: 'getAccount', fault: 'unavailable', name: 'db down' });
    arm({ fault: 'reset' });
    await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } }).catch(() => {});
    await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${key()}` } });
    await new Promise((r) => setTimeout(r, 50));
    expect(log.map((e) => [e.status, e.fault])).toEqual([
      [503, 'f1 "db down" (unavailable)'],
      [0, 'f2 (reset)'],
      [200, undefined],
    ]);
  });
});
