import { APIConnectionError, Linkgate } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { rejectionOf } from './support/harness.js';

describe('connection errors (real network, no msw)', () => {
  it('a refused connection is an APIConnectionError naming the URL and the cause', async () => {
    const port = await closedPort();
    // A manual clock that never moves: the per-attempt timeout cannot fire, only the refusal can end the call.
    const client = new Linkgate({
      apiKey: 'k-secret-0123456789',
      baseUrl: `http://127.0.0.1:${port}`,
      clock: new ManualClock(),
      maxRetries: 0,
    });
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(new RegExp(`GET http://127.0.0.1:${port}/api/account could not connect`));
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).message).not.toContain('k-secret-0123456789');
  });

  it('a port fetch refuses to use says why (its cause has a reason but no system code)', async () => {
    const client = new Linkgate({ apiKey: 'k-secret-0123456789', baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'GET http://127.0.0.1:1/api/account could not connect: fetch failed (bad port). Check baseUrl and the network.',
    );
  });
});
