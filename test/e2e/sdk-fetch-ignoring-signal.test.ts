// A user script whose custom fetch forwards the Request and nothing else (`(request) => fetch(request)`, dropping the
// init with the signal) against a server that never answers: the call still ends at its timeout, or when its signal
// aborts, and the script exits by itself.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runProgram } from './support/processes.js';

const KEY = 'e2e-fetch-signal-key-0001';

/** The ms the script's call took, as it printed it (`took <ms>`). */
const took = (stdout: string) => Number(/took (\d+)/.exec(stdout)?.[1] ?? Number.NaN);

describe('a user script whose custom fetch drops the signal, against a server that never answers', () => {
  let server: Server;
  let url: string;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts connections and reads requests, never answers.
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const cases = [
    { bound: 'timeout: 1000', options: '{ timeout: 1000, maxRetries: 0', call: '', error: 'APIConnectionTimeoutError' },
    {
      bound: 'its signal',
      options: '{ maxRetries: 0',
      call: '{ signal: AbortSignal.timeout(1000) }',
      error: 'APIUserAbortError',
    },
  ];
  for (const { bound, options, call, error } of cases) {
    it(`ends at 1 s by ${bound} with ${error} and exits by itself`, async () => {
      const result = await runProgram(
        {
          source: `
import { Linkgate } from 'linkgate';
const client = new Linkgate(${options}, fetch: (request) => fetch(request) });
const started = Date.now();
try {
  await client.account.get(${call});
  console.log('no error?');
} catch (error) {
  console.log(error.name + ' took ' + (Date.now() - started) + ' ms: ' + error.message);
}
`,
        },
        { env: { LINKGATE_BASE_URL: url, LINKGATE_API_KEY: KEY }, timeoutMs: 30_000 },
      );
      expect(result.code, describeRun(result)).toBe(0);
      expect(result.stdout, describeRun(result)).toMatch(new RegExp(`^${error} took \\d+ ms: `));
      expect(took(result.stdout), describeRun(result)).toBeGreaterThanOrEqual(950);
      expect(took(result.stdout), describeRun(result)).toBeLessThan(5_000);
      // It ended by itself soon after: nothing it left behind held it open.
      expect(result.ms, describeRun(result)).toBeLessThan(15_000);
      expect(result.stdout + result.stderr).not.toContain(KEY);
    }, 45_000);
  }
});
