// A request that fails inside this process (msw refusing it, an interceptor that breaks on a runtime without a feature
// it needs: Node 20 has no Promise.withResolvers) is not blamed on the network: the message says where it failed and
// which Node the mock needs. A refused connection still points at baseUrl and the network.
import { APIConnectionError, Linkgate } from 'linkgate';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { rejectionOf } from './support/harness.js';

const KEY = 'in-process-key-0123456789';
const BASE = 'http://linkgate.test';
const IN_PROCESS = /failed inside this process, not on the network \(.*linkgate\/mock needs Node >= 22\): .*\.$/;

const client = (baseUrl = BASE) =>
  new Linkgate({ apiKey: KEY, baseUrl, clock: new ManualClock(), maxRetries: 0, rateLimit: false });

describe('a request msw fails inside the process', () => {
  const backend = createMockBackend({ adminKey: KEY });
  const server = setupServer(...backend.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());

  it('answers as usual while msw works (the setting the failures below break)', async () => {
    expect((await client().account.get()).username).toBe('admin');
  });

  it('names the process, not the network, when an interceptor fails for a runtime feature it lacks', async () => {
    // As on Node 20: msw's socket interceptor calls Promise.withResolvers as it connects.
    const withResolvers = Reflect.get(Promise, 'withResolvers');
    Reflect.deleteProperty(Promise, 'withResolvers');
    let error: unknown;
    try {
      error = await rejectionOf(client().account.get());
    } finally {
      Reflect.set(Promise, 'withResolvers', withResolvers);
    }
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(IN_PROCESS);
    expect((error as Error).message).toContain('fetch failed (Promise.withResolvers is not a function)');
    expect((error as Error).message).not.toMatch(/Check baseUrl and the network/);
  });

  it('names the process when msw refuses a request no handler takes', async () => {
    const error = await rejectionOf(client('http://unhandled.test/elsewhere').account.get());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /^GET http:\/\/unhandled\.test\/elsewhere\/api\/account failed inside this process/,
    );
    expect((error as Error).message).toMatch(IN_PROCESS);
  });
});

describe('a request the network fails', () => {
  it('still points at baseUrl and the network (a closed port)', async () => {
    const port = await closedPort();
    const error = await rejectionOf(client(`http://127.0.0.1:${port}`).account.get());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      `GET http://127.0.0.1:${port}/api/account could not connect: fetch failed (ECONNREFUSED). Check baseUrl and the network.`,
    );
  });
});
