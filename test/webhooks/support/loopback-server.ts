// Real node:http servers on 127.0.0.1 for the receiver tests, each closed (with its connections) after its test.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * Call once per test file: returns `serve(listener)`, which starts a node:http server on 127.0.0.1, port 0, running
 * `listener` and resolves with its base URL. Every server started in a test is closed after it.
 */
export function loopbackServers(): (listener: http.RequestListener) => Promise<string> {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map((server) => {
        const closed = new Promise((resolve) => server.close(resolve));
        // Keep-alive sockets from fetch would otherwise hold close() open until they time out.
        server.closeAllConnections();
        return closed;
      }),
    );
  });
  return async (listener) => {
    const server = http.createServer(listener);
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}
