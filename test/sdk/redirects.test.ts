import { createServer, type Server } from 'node:http';
import { CrossOriginRedirectError, Linkgate, LinkgateError, MessagingClient } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, useMockApi } from './support/harness.js';

describe('redirects', () => {
  const ctx = useMockApi();

  /** URLs of every request that left the client, so a test can prove nothing went to another host. */
  function requestsSeen(): string[] {
    const urls: string[] = [];
    ctx.server.events.on('request:start', ({ request }) => {
      urls.push(request.url);
    });
    return urls;
  }

  it('follows a redirect within the base URL origin, keeping method and body on a 307', async () => {
    ctx.server.use(
      http.post(
        `${BASE_URL}/api/pixel/add`,
        () => new HttpResponse(null, { status: 307, headers: { Location: '/api/pixel/add?via=307' } }),
        {
          once: true,
        },
      ),
    );
    const created = await ctx.client().pixels.create({ type: 'gapixel', name: 'Moved', tag: 'G-MOVED1' });
    expect(created.id).toBeGreaterThan(0);
    const stored = await ctx.client().pixels.list().toArray();
    expect(stored.map((p) => p.name)).toContain('Moved');
  });

  it('never follows a redirect to another origin: the body and headers stay home and a CrossOriginRedirectError names the target', async () => {
    const urls = requestsSeen();
    ctx.server.use(
      http.post(
        `${BASE_URL}/api/pixel/add`,
        () =>
          new HttpResponse(null, { status: 307, headers: { Location: 'https://collector.example:8443/steal?x=1' } }),
        { once: true },
      ),
      http.all('https://collector.example:8443/*', () => HttpResponse.json({ error: 0, id: 666 })),
    );
    const error = await rejectionOf(
      ctx
        .client({ headers: { 'X-Team-Token': 'team-secret' } })
        .pixels.create({ type: 'gapixel', name: 'Kept', tag: 'G-KEPT1' }),
    );
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(error).toBeInstanceOf(LinkgateError);
    expect((error as CrossOriginRedirectError).targetOrigin).toBe('https://collector.example:8443');
    expect((error as CrossOriginRedirectError).status).toBe(307);
    expect((error as Error).message).toMatch(
      /POST \/api\/pixel\/add was redirected \(HTTP 307\) to another origin, https:\/\/collector\.example:8443; only redirects within http:\/\/linkgate\.test are followed/,
    );
    expect((error as Error).message).not.toContain('x=1');
    expect(urls.filter((u) => !u.startsWith(BASE_URL))).toEqual([]);
  });

  it('refuses a cross-origin redirect of a GET too, and does not retry it', async () => {
    const urls = requestsSeen();
    ctx.server.use(
      http.get(`${BASE_URL}/api/account`, () => HttpResponse.redirect('https://elsewhere.example/api/account', 302)),
    );
    const error = await rejectionOf(ctx.client().account.get());
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect((error as CrossOriginRedirectError).targetOrigin).toBe('https://elsewhere.example');
    expect(urls).toEqual([`${BASE_URL}/api/account`]);
  });

  it('turns a 303 into a GET without a body, as fetch does', async () => {
    ctx.server.use(
      http.put(`${BASE_URL}/api/account/update`, () => HttpResponse.redirect(`${BASE_URL}/api/account`, 303), {
        once: true,
      }),
    );
    await ctx.client().account.update({ email: 'new@example.com' });
    // The redirected request was a GET without the body: nothing was changed.
    expect((await ctx.client().account.get()).email).not.toBe('new@example.com');
  });

  it('gives up on a same-origin redirect loop with a message naming it', async () => {
    ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.redirect(`${BASE_URL}/api/account`, 302)));
    const error = await rejectionOf(ctx.client({ maxRetries: 0 }).account.get());
    expect((error as Error).message).toMatch(
      /redirected more than 20 times within http:\/\/linkgate\.test: a redirect loop/,
    );
  });
});

describe('redirects on the real network (no msw)', () => {
  let hits = 0;
  const target: Server = createServer((req, res) => {
    hits++;
    req.resume();
    res.end('{"error":0,"id":666}');
  });
  const origin: Server = createServer((req, res) => {
    req.resume();
    const port = (target.address() as { port: number }).port;
    res.writeHead(307, { Location: `http://127.0.0.1:${port}/api/pixel/add` }).end();
  });
  beforeAll(async () => {
    await Promise.all([target, origin].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  });
  afterAll(() => {
    for (const s of [target, origin]) s.close();
  });

  it('does not re-send a POST to another port of the same host (another origin)', async () => {
    const client = new Linkgate({
      apiKey: 'k-secret-0123456789',
      baseUrl: `http://127.0.0.1:${(origin.address() as { port: number }).port}`,
      clock: new ManualClock(),
    });
    const error = await rejectionOf(client.pixels.create({ type: 'gapixel', name: 'Kept', tag: 'G-KEPT2' }));
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect((error as CrossOriginRedirectError).targetOrigin).toBe(
      `http://127.0.0.1:${(target.address() as { port: number }).port}`,
    );
    expect(hits).toBe(0);
  });

  it('refuses it for the MessagingClient too', async () => {
    const messaging = new MessagingClient({
      apiKey: 'gw_live_TestKey0123456789abcdefghij',
      baseUrl: `http://127.0.0.1:${(origin.address() as { port: number }).port}`,
      clock: new ManualClock(),
    });
    const error = await rejectionOf(
      messaging.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' }),
    );
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    expect(hits).toBe(0);
  });
});
