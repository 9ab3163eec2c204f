import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-503-admin-key-0001';

/** A hostile gateway in front of the CLI's server: the first request gets a bare 503, the rest are passed through. */
async function flakyGateway(upstream: string): Promise<{ url: string; seen: () => number; close(): void }> {
  let seen = 0;
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    seen++;
    if (seen === 1) {
      req.resume();
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen: () => seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const ONE_CALL = `
import { Linkgate } from 'linkgate';
const client = new Linkgate();
const started = performance.now();
const account = await client.account.get();
console.log('account: ' + account.username + ' after ' + Math.round(performance.now() - started) + ' ms');
`;

describe('a one-call script whose first answer is a 503', () => {
  let cli: CliServer | undefined;
  let gateway: Awaited<ReturnType<typeof flakyGateway>> | undefined;
  afterEach(async () => {
    gateway?.close();
    await cli?.stop();
  });

  it('waits out the back-off, retries and exits 0 with the result', async () => {
    cli = await startCli(['--admin-key', ADMIN_KEY]);
    gateway = await flakyGateway(cli.url);
    const result = await runProgram(
      { source: ONE_CALL },
      { env: { LINKGATE_BASE_URL: gateway.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('account: admin');
    expect(gateway.seen()).toBe(2);
    // The first back-off is 0.5 s less up to a quarter of jitter.
    expect(result.ms).toBeGreaterThanOrEqual(375);
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer; a loaded machine takes seconds to start node and tsx
  });
});
