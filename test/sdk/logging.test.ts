import type { Logger } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, settle, useMockApi } from './support/harness.js';

function capture(): { logger: Logger; lines: Record<keyof Logger, string[]> } {
  const lines: Record<keyof Logger, string[]> = { debug: [], info: [], warn: [], error: [] };
  const logger: Logger = {
    debug: (m) => lines.debug.push(m),
    info: (m) => lines.info.push(m),
    warn: (m) => lines.warn.push(m),
    error: (m) => lines.error.push(m),
  };
  return { logger, lines };
}

describe('logging', () => {
  const ctx = useMockApi();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prints one info line per request with method, path, status and time', async () => {
    const { logger, lines } = capture();
    const client = ctx.client({ logger });
    await client.account.get();
    await client.domains.list();
    expect(lines.info).toEqual(['GET /api/account 200 in 0 ms', 'GET /api/domains 200 in 0 ms']);
    expect(lines.debug).toEqual([]);
  });

  it('prints one warn line per retry', async () => {
    // The mock never answers 5xx: one 503 is overridden; the retry reaches the mock.
    ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.json({}, { status: 503 }), { once: true }));
    const { logger, lines } = capture();
    await settle(ctx.clock, Promise.resolve(ctx.client({ logger, random: () => 0 }).account.get()));
    expect(lines.warn).toEqual(['GET /api/account failed (HTTP 503); retry 1 of 2 in 500 ms']);
    expect(lines.info).toHaveLength(2);
  });

  it('respects logLevel', async () => {
    const { logger, lines } = capture();
    await ctx.client({ logger, logLevel: 'warn' }).account.get();
    expect(lines.info).toEqual([]);
    await ctx.client({ logger, logLevel: 'debug' }).account.get();
    expect(lines.debug[0]).toMatch(
      /^GET http:\/\/linkgate\.test\/api\/account sending \(Authorization: Bearer \*\*\*, /,
    );
  });

  it('is silent by default', async () => {
    const spies = (['debug', 'info', 'warn', 'error', 'log'] as const).map((m) => vi.spyOn(console, m));
    await ctx.client().account.get();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
