// Issue 31, item 13: a burst of new connections against `linkgate mock` while its open connections keep it busy. Node
// accepts one connection per poll of its event loop, and a loop serving N ready connections polls once per N
// requests: without the server taking new connections first, each waits for hundreds of answers to others.
// The 5,000-connection run is bench/reliability/connection-burst.ts (`npm run reliability -- --load`).
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';

const KEY = 'connection-burst-admin-key';
/** Keep-alive connections that each send their next request as soon as the last one is answered. */
const BUSY_CONNECTIONS = 400;
/** New connections opened at once while the busy ones run. */
const NEW_CONNECTIONS = 300;
/** Every new connection's first answer within this: 0.1-0.3 s with the fix; without it, 8.5 s, or none within 6 s. */
const FIRST_ANSWER_BOUND_MS = 3_000;

const sockets = new Set<Socket>();
afterEach(() => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
});

/** A raw keep-alive connection to `url`, with the request it sends for `/api/account` as the admin. */
function open(url: string): Promise<{ socket: Socket; request: string }> {
  const { hostname, port } = new URL(url);
  const request = `GET /api/account HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve({ socket, request }));
    sockets.add(socket);
    socket.once('error', reject);
  });
}

describe('linkgate mock under a burst of new connections', () => {
  it('answers every one of 300 new connections within 3 s while 400 others keep it busy', async () => {
    const cli = await startCli(['--quiet', '--seed', 'demo', '--rate-limit', 'off', '--admin-key', KEY]);
    let answered = 0;
    await Promise.all(
      Array.from({ length: BUSY_CONNECTIONS }, async () => {
        const { socket, request } = await open(cli.url);
        // One request in flight per connection: the next goes out as the last answer comes in.
        socket.on('data', () => {
          answered++;
          socket.write(request);
        });
        socket.write(request);
      }),
    );
    while (answered < 10 * BUSY_CONNECTIONS) await new Promise((r) => setTimeout(r, 20));

    const started = performance.now();
    const firstAnswers = await Promise.all(
      Array.from(
        { length: NEW_CONNECTIONS },
        () =>
          new Promise<{ ms: number; status: string }>((resolve, reject) => {
            // Bounded: a connection left waiting counts as never answered.
            setTimeout(() => resolve({ ms: Number.POSITIVE_INFINITY, status: 'no answer' }), 2 * FIRST_ANSWER_BOUND_MS);
            open(cli.url).then(({ socket, request }) => {
              socket.once('data', (d: Buffer) =>
                resolve({ ms: performance.now() - started, status: d.toString('latin1').split('\r\n')[0]! }),
              );
              socket.write(request);
            }, reject);
          }),
      ),
    );
    const late = firstAnswers.filter((a) => a.ms >= FIRST_ANSWER_BOUND_MS).length;
    const slowest = Math.max(...firstAnswers.map((a) => a.ms));
    const note = `${late} of ${NEW_CONNECTIONS} answered after 3 s or never (slowest: ${slowest.toFixed(0)} ms)`;
    expect(late, note).toBe(0);
    expect(new Set(firstAnswers.map((a) => a.status))).toEqual(new Set(['HTTP/1.1 200 OK']));
    for (const socket of sockets) socket.destroy();
    await cli.stop();
  }, 60_000);
});
