// Node-only (called by node-server.ts, which loads node:http lazily): new connections are taken in before the open
// ones are read again, so a burst of connections is not left waiting in the kernel's accept queue (issue 31, item 13).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Performance as NodePerformance } from 'node:perf_hooks';

/** The longest the open connections wait while new ones are taken in, before they are read again for a while. */
export const ACCEPT_FIRST_MAX_MS = 200;
/** How long after a pause ends the open connections are read before they may be paused again. */
export const ACCEPT_FIRST_GAP_MS = 20;

/**
 * Node (libuv 1.45 and later) accepts one connection each time the event loop polls, and a loop busy with N open
 * connections that all have a request ready polls once per min(N, 1,024) requests: under a burst, the accept rate
 * falls to the answer rate divided by 1,024 (16 a second for the mock at 16,000 answers a second), the kernel's accept
 * queue stays full (`net.core.somaxconn`), and what arrives on top is dropped and retried by the client seconds later.
 *
 * So when a connection comes in while the loop has not been idle since the previous one (connections are queuing),
 * every open connection stops reading until a turn of the loop goes by with no new connection: each turn then polls
 * the listening socket alone and accepts the next waiting connection at once. The pause lasts at most
 * {@link ACCEPT_FIRST_MAX_MS}, and the open connections are read for at least {@link ACCEPT_FIRST_GAP_MS} between two.
 * A connection that comes in to an idle loop changes nothing.
 *
 * @param open - The server's open connections, kept by a `connection` listener added before this one.
 */
export function acceptFirst(server: Server, open: ReadonlySet<Socket>): void {
  /** The connections this pause stopped (none stopped by someone else: their reader resumes them). */
  let paused: Socket[] = [];
  let pausing = false;
  let arrivedThisTurn = 0;
  let pauseStartedAt = 0;
  let nextPauseAt = 0;
  const loopUse = () => (performance as unknown as NodePerformance).eventLoopUtilization();
  let loopSince = loopUse();

  const stop = (socket: Socket) => {
    if (socket.destroyed || socket.isPaused()) return;
    socket.pause();
    paused.push(socket);
  };
  const stopAll = () => {
    for (const socket of open) stop(socket);
  };
  const endOfTurn = () => {
    if (arrivedThisTurn > 0 && performance.now() - pauseStartedAt < ACCEPT_FIRST_MAX_MS) {
      arrivedThisTurn = 0;
      setImmediate(endOfTurn);
      return;
    }
    pausing = false;
    nextPauseAt = performance.now() + ACCEPT_FIRST_GAP_MS;
    const stopped = paused;
    paused = [];
    for (const socket of stopped) if (!socket.destroyed) socket.resume();
  };

  server.on('connection', (socket: Socket) => {
    // In a tick, not now: node:http's own listener (before this one) started the socket flowing, and the 'resume'
    // it scheduled for this tick would start reading again what a pause here stopped.
    if (pausing) {
      arrivedThisTurn++;
      process.nextTick(stop, socket);
      return;
    }
    const now = loopUse();
    const idle = now.idle - loopSince.idle;
    loopSince = now;
    // The loop waited for this connection: none is queued behind it.
    if (idle > 0 || performance.now() < nextPauseAt) return;
    pausing = true;
    pauseStartedAt = performance.now();
    arrivedThisTurn = 1;
    process.nextTick(stopAll);
    setImmediate(endOfTurn);
  });
}
