// The call's timeout and abort hold whatever fetch it is given: one that drops the signal (a forwarding wrapper, or
// one that builds its own request from the URL) is raced against them, and an answer it gives later is discarded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionTimeoutError, APIUserAbortError, Linkgate } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf, settle } from './support/harness.js';

const KEY = 'signal-key-0123456789';

/** A client on a manual clock whose fetch is `fetch`. */
const clientWith = (clock: ManualClock, fetch: (input: Request | URL | string) => Promise<Response>) =>
  new Linkgate({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', clock, fetch, timeout: 1000, maxRetries: 0 });

describe('a fetch that never settles and ignores every signal', () => {
  const never = () => new Promise<Response>(() => {});

  it('ends at the timeout with APIConnectionTimeoutError', async () => {
    const clock = new ManualClock();
    const started = clock.now();
    const outcome = await settle(clock, Promise.resolve(clientWith(clock, never).account.get()));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((outcome as { error: Error }).error.message).toMatch(/no answer within 1000 ms/);
    expect(clock.now() - started).toBe(1000);
  });

  it('ends when the caller aborts, with APIUserAbortError', async () => {
    const controller = new AbortController();
    const call = clientWith(new ManualClock(), never).account.get({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    expect(await rejectionOf(call)).toBeInstanceOf(APIUserAbortError);
  });
});

describe('an answer that comes after the timeout', () => {
  it('has its body cancelled, unread', async () => {
    const clock = new ManualClock();
    let answer!: (response: Response) => void;
    let cancelled = false;
    const client = clientWith(clock, () => new Promise<Response>((resolve) => (answer = resolve)));
    const outcome = await settle(clock, Promise.resolve(client.account.get()));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIConnectionTimeoutError);
    answer(
      new Response(
        new ReadableStream({
          pull: () => new Promise(() => {}),
          cancel: () => {
            cancelled = true;
          },
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(cancelled).toBe(true);
  });
});

describe('a body that stalls, read by a fetch that ignores the signal', () => {
  it('ends at the timeout too', async () => {
    const clock = new ManualClock();
    const stalled = async () =>
      new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), {
        headers: { 'content-type': 'application/json' },
      });
    const outcome = await settle(clock, Promise.resolve(clientWith(clock, stalled).account.get()));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe('a forwarding fetch, `(request) => fetch(request)`, against a server that never answers', () => {
  let server: Server;
  let url: string;
  const open = new Set<import('node:net').Socket>();
  beforeAll(async () => {
    server = createServer(() => {});
    server.on('connection', (socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    await new Promise((r) => server.close(r));
  });

  it('times out, and the Request it forwards carries the abort: the connection is closed', async () => {
    const clock = new ManualClock();
    const client = new Linkgate({
      apiKey: KEY,
      baseUrl: url,
      clock,
      timeout: 1000,
      maxRetries: 0,
      fetch: (request) => fetch(request as Request),
    });
    const call = client.account.get();
    // The request reaches the server before the clock moves.
    for (let i = 0; i < 100 && open.size === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(open.size).toBe(1);
    const outcome = await settle(clock, Promise.resolve(call));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIConnectionTimeoutError);
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(open.size).toBe(0);
  });
});
