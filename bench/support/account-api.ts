// The loopback API the per-call benchmarks measure against, shared by sdk-overhead and redis-store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running loopback API; {@link AccountApi.close} stops it. */
export interface AccountApi {
  /** `http://127.0.0.1:<port>`, for the client's `baseUrl`. */
  baseUrl: string;
  /** Stops listening. */
  close(): void;
}

/**
 * Starts a loopback server that answers every request with the same `GET /api/account` body and a budget too
 * large to hold any call, so only the client's own bookkeeping (limiter, store) is measured.
 */
export async function startAccountApi(): Promise<AccountApi> {
  const body = JSON.stringify({
    error: 0,
    data: {
      id: 1,
      email: 'admin@example.com',
      username: 'admin',
      avatar: 'https://www.gravatar.com/avatar/admin?d=identicon',
      status: 'pro',
      expires: null,
      registered: '2026-01-01 00:00:00',
    },
  });
  const reset = String(Math.ceil(Date.now() / 1000) + 3600);
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'X-RateLimit-Limit': '1000000000',
      'X-RateLimit-Remaining': '999999999',
      'X-RateLimit-Reset': reset,
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
