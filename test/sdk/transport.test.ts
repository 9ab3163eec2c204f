// What the client hands its fetch, now that ky builds the Request and runs the beforeRequest hooks (it used to be the
// SDK's own transport): the Request it sends, how beforeRequest hooks change or answer it, and which throws count as
// the network failing. Each is pinned through a client with a recording fetch.
import { APIConnectionError, Linkgate } from 'linkgate';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { rejectionOf, throwingFetchClient } from './support/harness.js';

const BASE = 'https://links.example.com';
const KEY = 'transport-key-0123456789';

/** The reference backend, called directly (no msw): it answers what the recording fetch is given. */
const backend = createMockBackend({ adminKey: KEY });

/** A client whose fetch records what it was given and has the backend answer it. */
function recorder(options: ConstructorParameters<typeof Linkgate>[0] = {}) {
  const sent: Request[] = [];
  const client = new Linkgate({
    apiKey: KEY,
    baseUrl: BASE,
    clock: new ManualClock(),
    maxRetries: 0,
    rateLimit: false,
    fetch: async (input) => {
      sent.push((input as Request).clone());
      return backend.fetch(input);
    },
    ...options,
  });
  return { sent, client };
}

/** A client whose fetch throws `thrown`. */
const failing = (thrown: unknown) => throwingFetchClient(KEY, BASE, () => thrown);

describe('the Request it sends', () => {
  it('carries the client headers, the call headers set over them whatever their case, and the JSON body', async () => {
    const { sent, client } = recorder({ headers: { 'X-Client': 'c1' } });
    await client.domains
      .create(
        { domain: 'https://go.example.com' },
        { headers: { 'content-type': 'application/json; charset=utf-8', 'X-Trace': 't1', 'x-client': 'c2' } },
      )
      .catch(() => {});
    const [request] = sent;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${BASE}/api/domain/add`);
    expect(request?.redirect).toBe('manual');
    expect(request?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(request?.headers.get('x-trace')).toBe('t1');
    expect(request?.headers.get('x-client')).toBe('c2');
    expect(await request?.json()).toEqual({ domain: 'https://go.example.com' });
  });

  it('sends no body without one, and says JSON', async () => {
    const { sent, client } = recorder();
    await client.account.get();
    expect(sent[0]?.body).toBeNull();
    expect(sent[0]?.headers.get('content-type')).toBe('application/json');
    expect(sent[0]?.headers.get('accept')).toBe('application/json');
  });
});

describe('beforeRequest hooks', () => {
  it('send a Request one returns, and the next hook sees it', async () => {
    const seen: string[] = [];
    const { sent, client } = recorder({
      hooks: {
        beforeRequest: [
          ({ request }) => new Request(`${request.url}?v=2`, request),
          ({ request }) => {
            seen.push(request.url);
            request.headers.set('x-added', 'yes');
          },
        ],
      },
    });
    await client.account.get();
    expect(seen).toEqual([`${BASE}/api/account?v=2`]);
    expect(sent[0]?.url).toBe(`${BASE}/api/account?v=2`);
    expect(sent[0]?.headers.get('x-added')).toBe('yes');
  });

  it('answer with a Response one returns: nothing is sent and later hooks are skipped', async () => {
    let later = false;
    const { sent, client } = recorder({
      hooks: {
        beforeRequest: [
          // The backend's answer, got by the hook itself: the client's fetch is not called.
          ({ request }) => backend.fetch(request),
          () => {
            later = true;
          },
        ],
      },
    });
    expect((await client.account.get()).username).toBe('admin');
    expect(sent).toEqual([]);
    expect(later).toBe(false);
  });

  it('ignore any other value a hook returns (a string, a number, a plain object)', async () => {
    const { sent, client } = recorder({
      hooks: { beforeRequest: [(() => 'x') as never, (() => 7) as never, (() => ({})) as never] },
    });
    await client.account.get();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(`${BASE}/api/account`);
  });

  it('pass on what a hook throws, unchanged', async () => {
    const thrown = { reason: 'no' };
    const { client } = recorder({
      hooks: {
        beforeRequest: [
          () => {
            throw thrown;
          },
        ],
      },
    });
    expect(await rejectionOf(client.account.get())).toBe(thrown);
  });
});

describe('a network failure, told from other throws', () => {
  it('is what fetch throws when nothing listens on the port: the system code is named', async () => {
    const port = await closedPort();
    const client = new Linkgate({
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      clock: new ManualClock(),
      maxRetries: 0,
    });
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/could not connect: fetch failed \(ECONNREFUSED\)/);
  });

  it("is a TypeError with a runtime's network message (Node, Chrome, Firefox, Deno, Workers): its cause's code is named", async () => {
    for (const message of [
      'fetch failed',
      'terminated',
      'Failed to fetch',
      'Failed to fetch (api.example.com)',
      'NetworkError when attempting to fetch resource.',
      'error sending request for url (https://x.example/)',
      'Network connection lost',
    ]) {
      const error = await rejectionOf(failing(new TypeError(message, { cause: { code: 'ECONNRESET' } })).account.get());
      expect(error, message).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message, message).toBe(
        `GET ${BASE}/api/account could not connect: ${message} (ECONNRESET). Check baseUrl and the network.`,
      );
    }
  });

  it('is not any other error a custom fetch throws: that one is read through its cause', async () => {
    for (const thrown of [
      new Error('fetch failed', { cause: new Error('proxy refused') }),
      new TypeError('boom', { cause: new Error('proxy refused') }),
      new RangeError('fetch failed', { cause: new Error('proxy refused') }),
    ]) {
      const error = await rejectionOf(failing(thrown).account.get());
      expect(error, thrown.message).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message, thrown.message).toBe(
        `GET ${BASE}/api/account could not connect: proxy refused. Check baseUrl and the network.`,
      );
    }
  });
});
