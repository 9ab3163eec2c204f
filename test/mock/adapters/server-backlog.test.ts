// The standalone server asks for an accept queue that holds thousands of connections opened at once (the kernel caps
// it at net.core.somaxconn); the 5,000-connection load run is `npm run reliability -- --load` (bench/reliability/).
import { Server } from 'node:net';
import { startMockServer } from 'linkgate/mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LISTEN_BACKLOG } from '../../../mock/adapters/node-server.js';

afterEach(() => vi.restoreAllMocks());

describe('startMockServer listen backlog', () => {
  it('listens with a backlog of at least 4096, not Node’s default 511', async () => {
    const listen = vi.spyOn(Server.prototype, 'listen');
    const server = await startMockServer({ port: 0 });
    try {
      expect(LISTEN_BACKLOG).toBeGreaterThanOrEqual(4096);
      expect(listen).toHaveBeenCalledWith(expect.objectContaining({ backlog: LISTEN_BACKLOG }), expect.any(Function));
      expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
