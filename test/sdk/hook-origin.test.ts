// A beforeRequest hook that returns a Request for another origin, against real loopback servers: the mock as the
// client's base URL and a second server that counts every request it gets.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { CrossOriginRedirectError, Linkgate, type LinkgateOptions, MessagingClient } from 'linkgate';
import { type MockServer, startMockServer } from 'linkgate/mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from './support/harness.js';

const ADMIN_KEY = 'hook-origin-admin-key-4c1e9a';
const MESSAGING_KEY = 'gw_live_HookOriginKey0123456789abcdef';

/** Every request the other origin got: none may arrive. */
const received: IncomingHttpHeaders[] = [];
const other = createServer((req, res) => {
  received.push(req.headers);
  res.end('{"error":0,"data":{}}');
});
let otherUrl = '';
let mock: MockServer;

beforeAll(async () => {
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  mock = await startMockServer({ adminKey: ADMIN_KEY, gateway: { messagingKey: MESSAGING_KEY } });
});
afterAll(async () => {
  await mock.close();
  other.closeAllConnections();
  await new Promise((resolve) => other.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  hookRuns = 0;
});

/** How many times a {@link sendTo} hook ran. */
let hookRuns = 0;

/** A hook that sends the call, Authorization header and all, to `target` instead. */
const sendTo =
  (target: string): NonNullable<NonNullable<LinkgateOptions['hooks']>['beforeRequest']>[number] =>
  ({ request }) => {
    hookRuns++;
    return new Request(`${target}/steal`, request);
  };

/** A client of the mock whose beforeRequest hook sends every call to `target`. */
const redirecting = (target: string) =>
  new Linkgate({ apiKey: ADMIN_KEY, baseUrl: mock.url, hooks: { beforeRequest: [sendTo(target)] } });

describe('a beforeRequest hook returning a Request for another origin', () => {
  it('is refused with a CrossOriginRedirectError naming that origin, and nothing reaches it', async () => {
    const client = redirecting(otherUrl);
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(error).toMatchObject({ status: 0, targetOrigin: otherUrl });
    expect((error as Error).message).toBe(
      `GET /api/account: a beforeRequest hook returned a Request for another origin, ${otherUrl}; only requests within ${mock.url} are sent, so the body and headers stay there.`,
    );
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(ADMIN_KEY);
    expect(received).toEqual([]);
  });

  it('is not retried, and a POST body goes nowhere either', async () => {
    const client = redirecting(otherUrl);
    const error = await rejectionOf(client.domains.create({ domain: 'https://go.hook-origin.example' }));
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(hookRuns).toBe(1);
    expect(received).toEqual([]);
  });

  it('is refused for the messaging client too, its key kept home', async () => {
    const client = new MessagingClient({
      apiKey: MESSAGING_KEY,
      baseUrl: mock.url,
      hooks: { beforeRequest: [sendTo(otherUrl)] },
    });
    const error = await rejectionOf(client.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' }));
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(received).toEqual([]);
  });

  it('is refused for a Request of another realm too (told by its tag, as the transport tells it)', async () => {
    const foreign = { [Symbol.toStringTag]: 'Request', url: `${otherUrl}/steal`, method: 'GET' };
    const client = new Linkgate({
      apiKey: ADMIN_KEY,
      baseUrl: mock.url,
      hooks: { beforeRequest: [() => foreign as never] },
    });
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(error).toMatchObject({ status: 0, targetOrigin: otherUrl });
    expect(received).toEqual([]);
  });

  it('counts another port or scheme of the same host as another origin', async () => {
    const { port } = new URL(mock.url);
    const elsewhere = [`http://localhost:${port}`, `https://127.0.0.1:${port}`];
    for (const target of elsewhere) {
      const client = redirecting(target);
      expect(await rejectionOf(client.account.get())).toMatchObject({ targetOrigin: target });
    }
  });

  it('still sends a Request the hook returns for the base URL’s own origin', async () => {
    const client = new Linkgate({
      apiKey: ADMIN_KEY,
      baseUrl: mock.url,
      hooks: {
        beforeRequest: [
          ({ request }) => new Request(request.url.replace('/api/account', '/api/account?via=hook'), request),
        ],
      },
    });
    const account = await client.account.get();
    expect(account.username).toBe('admin');
  });
});
