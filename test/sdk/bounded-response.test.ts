import { createServer, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { APIConnectionError, Linkgate, MessagingClient, ResponseTooLargeError } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from './support/harness.js';

/** A hostile server: whatever it is asked, it answers with `answer`; it counts the bytes it managed to send. */
function hostileServer() {
  let answer: (res: ServerResponse) => void = (res) => res.end('{}');
  let sent = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    answer(res);
  });
  return {
    server,
    get sent() {
      return sent;
    },
    answer(fn: (res: ServerResponse) => void) {
      answer = fn;
      sent = 0;
    },
  };
}

/** Writes 64 KB chunks for as long as the client reads, honouring back-pressure. */
function endless(res: ServerResponse, headers: Record<string, string | number> = {}) {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', pump);
  res.write('{"data":"');
  pump();
}

describe('bounded reading of answers (a hostile server on loopback, no msw)', () => {
  const hostile = hostileServer();
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => hostile.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(hostile.server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    hostile.server.closeAllConnections();
    hostile.server.close();
  });
  // A manual clock that never moves: the per-attempt timeout cannot end a call, only the bound can.
  const client = (options: { maxResponseBytes?: number } = {}) =>
    new Linkgate({ apiKey: 'k-secret-0123456789', baseUrl, clock: new ManualClock(), maxRetries: 0, ...options });

  it('stops reading an endless body at maxResponseBytes and fails with ResponseTooLargeError naming the option', async () => {
    hostile.answer((res) => endless(res));
    const started = performance.now();
    const error = await rejectionOf(client({ maxResponseBytes: 1024 * 1024 }).account.get());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /GET \/api\/account answered HTTP 200 with a body larger than maxResponseBytes \(1048576 bytes/,
    );
    expect((error as Error).message).toMatch(/Raise the maxResponseBytes option/);
    expect((error as ResponseTooLargeError).maxResponseBytes).toBe(1024 * 1024);
    expect(performance.now() - started).toBeLessThan(5_000);
    // The client hung up: the server could not push much past the bound (socket buffers aside).
    await new Promise((r) => setTimeout(r, 100));
    const sentAtHangUp = hostile.sent;
    await new Promise((r) => setTimeout(r, 300));
    expect(hostile.sent).toBe(sentAtHangUp);
    expect(sentAtHangUp).toBeLessThan(16 * 1024 * 1024);
  });

  it('bounds an endless body by 16 MiB when maxResponseBytes is not given', async () => {
    hostile.answer((res) => endless(res));
    const error = await rejectionOf(client().account.get());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).maxResponseBytes).toBe(16 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the bound without reading the body', async () => {
    hostile.answer((res) => endless(res, { 'Content-Length': 100 * 1024 * 1024 }));
    const error = await rejectionOf(client({ maxResponseBytes: 1024 * 1024 }).account.get());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/a declared body of 104857600 bytes, more than maxResponseBytes/);
  });

  it('counts decoded bytes, so a small gzip bomb is stopped at the bound too', async () => {
    // 64 MiB of spaces compress to about 64 KB: far below the bound on the wire, far above it decoded.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    hostile.answer((res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Content-Length': bomb.length,
      });
      res.end(bomb);
    });
    const before = process.memoryUsage().arrayBuffers;
    const error = await rejectionOf(client({ maxResponseBytes: 4 * 1024 * 1024 }).account.get());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/counted after decompression/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(48 * 1024 * 1024);
  });

  it('reads a compressed answer whose decoded size is exactly the bound', async () => {
    const body = JSON.stringify({
      error: 0,
      data: {
        id: 1,
        email: 'a@b.example',
        username: 'admin',
        avatar: '',
        status: 'free',
        expires: null,
        registered: '2026-01-01 00:00:00',
      },
    });
    hostile.answer((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(body));
    });
    const account = await client({ maxResponseBytes: Buffer.byteLength(body) }).account.get();
    expect(account.username).toBe('admin');
  });

  it('bounds the MessagingClient the same way', async () => {
    hostile.answer((res) => endless(res));
    const messaging = new MessagingClient({
      apiKey: 'gw_live_TestKey0123456789abcdefghij',
      baseUrl,
      clock: new ManualClock(),
      maxResponseBytes: 256 * 1024,
    });
    const error = await rejectionOf(
      messaging.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/POST \/api\/v1\/.* larger than maxResponseBytes \(262144 bytes/);
  });

  it('refuses a maxResponseBytes that is not a positive number', () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes must be a number >= 1/);
  });
});
