// The SDK's own transport (src/core/transport.ts) sends what ky 2 sent in its place: these pin the Request it builds,
// how beforeRequest hooks change or answer it, and which throws count as the network failing.
import { describe, expect, it } from 'vitest';
import { exchange, isNetworkError } from '../../src/core/transport.js';
import { closedPort } from '../support/closed-port.js';

const URL_ = 'https://links.example.com/api/account';
const CLIENT_HEADERS = { Authorization: 'Bearer k', 'Content-Type': 'application/json', Accept: 'application/json' };

/** A fetch that records what it was given and answers 200. */
function recorder() {
  const sent: Request[] = [];
  return {
    sent,
    fetch: async (request: Request) => {
      sent.push(request);
      return new Response('{}', { status: 200 });
    },
  };
}

describe('the Request it sends', () => {
  it('carries the client headers, the call headers set over them whatever their case, and the JSON body', async () => {
    const { sent, fetch } = recorder();
    await exchange(URL_, {
      method: 'POST',
      headers: CLIENT_HEADERS,
      extra: { 'content-type': 'text/plain', 'X-Trace': 't1' },
      json: { a: 1 },
      fetch,
    });
    const [request] = sent;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(URL_);
    expect(request?.redirect).toBe('manual');
    expect(request?.headers.get('content-type')).toBe('text/plain');
    expect(request?.headers.get('authorization')).toBe('Bearer k');
    expect(request?.headers.get('x-trace')).toBe('t1');
    expect(await request?.text()).toBe('{"a":1}');
  });

  it('sends no body without json, and says JSON when a body has no content type', async () => {
    const { sent, fetch } = recorder();
    await exchange(URL_, { method: 'GET', headers: CLIENT_HEADERS, fetch });
    await exchange(URL_, { method: 'PUT', headers: { Authorization: 'Bearer k' }, json: [1], fetch });
    expect(sent[0]?.body).toBeNull();
    expect(sent[1]?.headers.get('content-type')).toBe('application/json');
  });
});

describe('beforeRequest hooks', () => {
  it('send a Request one returns, and the next hook sees it', async () => {
    const { sent, fetch } = recorder();
    const seen: string[] = [];
    await exchange(URL_, {
      method: 'GET',
      headers: CLIENT_HEADERS,
      hooks: [
        ({ request }) => new Request(`${request.url}?v=2`, request),
        ({ request }) => {
          seen.push(request.url);
          request.headers.set('x-added', 'yes');
        },
      ],
      fetch,
    });
    expect(seen).toEqual([`${URL_}?v=2`]);
    expect(sent[0]?.url).toBe(`${URL_}?v=2`);
    expect(sent[0]?.headers.get('x-added')).toBe('yes');
  });

  it('answer with a Response one returns: nothing is sent and later hooks are skipped', async () => {
    const { sent, fetch } = recorder();
    let later = false;
    const answer = await exchange(URL_, {
      method: 'GET',
      headers: CLIENT_HEADERS,
      hooks: [
        () => new Response('cached', { status: 203 }),
        () => {
          later = true;
        },
      ],
      fetch,
    });
    expect(answer.status).toBe(203);
    expect(sent).toEqual([]);
    expect(later).toBe(false);
  });

  it('ignore any other value a hook returns (a string, a number, a plain object)', async () => {
    const { sent, fetch } = recorder();
    await exchange(URL_, { method: 'GET', headers: CLIENT_HEADERS, hooks: [() => 'x', () => 7, () => ({})], fetch });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(URL_);
  });

  it('pass on what a hook throws, unchanged', async () => {
    const thrown = { reason: 'no' };
    const { fetch } = recorder();
    await expect(
      exchange(URL_, {
        method: 'GET',
        headers: CLIENT_HEADERS,
        hooks: [
          () => {
            throw thrown;
          },
        ],
        fetch,
      }),
    ).rejects.toBe(thrown);
  });
});

describe('a network failure, told from other throws', () => {
  it('is what fetch throws when nothing listens on the port', async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
  });

  it("is a TypeError with a runtime's network message (Node, Chrome, Firefox, Safari, Deno, Workers)", () => {
    for (const message of [
      'fetch failed',
      'terminated',
      'Failed to fetch',
      'Failed to fetch (api.example.com)',
      'NetworkError when attempting to fetch resource.',
      'error sending request for url (https://x.example/)',
      'Network connection lost',
    ]) {
      expect(isNetworkError(new TypeError(message)), message).toBe(true);
    }
    const safari = new TypeError('Load failed');
    safari.stack = undefined;
    expect(isNetworkError(safari)).toBe(true);
  });

  it('is not any other error or value a custom fetch throws', () => {
    for (const value of [
      new Error('fetch failed'),
      new TypeError('boom'),
      new TypeError('Load failed'), // with a stack: a script's own
      new RangeError('fetch failed'),
      { name: 'TypeError', message: 'fetch failed' },
      'fetch failed',
      null,
      undefined,
      42,
    ]) {
      expect(isNetworkError(value), String(value)).toBe(false);
    }
  });
});
