// Node-only (called by node-server.ts, which loads node:http lazily): new connections are taken in before the open
// ones are read again, so a burst of connections is not left waiting in the kernel's accept queue (issue 31, item 13).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A turn of the event loop this long after taking a connection in means the next one waits as long in the queue. */
export const ACCEPT_FIRST_LONG_TURN_MS = 10;
/** The longest the open connections wait while new ones are taken in, before they are read again for a while. */
export const ACCEPT_FIRST_MAX_MS = 200;
/** How long after a pause ends the open connections are read before they may be paused again. */
export const ACCEPT_FIRST_GAP_MS = 100;
/** Events libuv reads from one poll (epoll): a poll that reads only events of stopped connections ends the turn. */
const EVENTS_PER_POLL = 1_024;

/**
 * Node (libuv 1.45 and later) accepts one connection each time the event loop polls, and a loop busy with N open
 * connections that all have a request ready polls once per min(N, 1,024) requests: under a burst, the accept rate
 * falls to the answer rate divided by 1,024 (16 a second for the mock at 16,000 answers a second), the kernel's accept
 * queue stays full (`net.core.somaxconn`), and what arrives on top is dropped and retried by the client seconds later.
 *
 * So when the turn of the loop that took a connection in took in a second one (it polled more than once: others are
 * queuing) or went on for {@link ACCEPT_FIRST_LONG_TURN_MS} or more, every open connection stops reading until turns
 * go by with no new connection: each turn then polls the listening socket alone and accepts the next waiting
 * connection at once. The first turns of a pause may only clear the stopped connections' pending events from the
 * poll, up to 1,024 a turn, so as many turns without a new connection are needed before the pause ends. The pause lasts at most {@link ACCEPT_FIRST_MAX_MS}, and the open connections are read for at
 * least {@link ACCEPT_FIRST_GAP_MS} between two pauses, which bounds what pausing thousands of connections costs.
 * A connection taken in by a short turn changes nothing.
 *
 * @param open - The server's open connections, kept by a `connection` listener added before this one.
 */
export function acceptFirst(server: Server, open: ReadonlySet<Socket>): void {
  /** The connections this pause stopped (none stopped by someone else: their reader resumes them). */
  let paused: Socket[] = [];
  let pausing = false;
  /** Connections taken in since the last end of a turn, and whether that end is watched. */
  let arrived = 0;
  let watching = false;
  let firstArrivalAt = 0;
  let pauseStartedAt = 0;
  let nextPauseAt = 0;
  /** Turns of this pause in a row that took no connection in. */
  let quietTurns = 0;

  const stop = (socket: Socket) => {
    if (socket.destroyed || socket.isPaused()) return;
    socket.pause();
    paused.push(socket);
  };
  const stopAll = () => {
    for (const socket of open) stop(socket);
  };
  const pause = (now: number) => {
    pausing = true;
    pauseStartedAt = now;
    quietTurns = 0;
    // In a tick, not now: node:http's own listener (before this one) started the new socket flowing, and the
    // 'resume' it scheduled for this tick would start reading again what a pause here stopped.
    process.nextTick(stopAll);
  };
  const endOfTurn = () => {
    const now = performance.now();
    const queuing = arrived > 1 || now - firstArrivalAt >= ACCEPT_FIRST_LONG_TURN_MS;
    quietTurns = arrived > 0 ? 0 : quietTurns + 1;
    const waiting = quietTurns <= Math.ceil(paused.length / EVENTS_PER_POLL);
    const goOn = pausing ? waiting && now - pauseStartedAt < ACCEPT_FIRST_MAX_MS : queuing && now >= nextPauseAt;
    arrived = 0;
    if (goOn) {
      if (!pausing) pause(now);
      setImmediate(endOfTurn);
      return;
    }
    watching = false;
    if (!pausing) return;
    pausing = false;
    nextPauseAt = now + ACCEPT_FIRST_GAP_MS;
    const stopped = paused;
    paused = [];
    for (const socket of stopped) if (!socket.destroyed) socket.resume();
  };

  server.on('connection', (socket: Socket) => {
    arrived++;
    if (pausing) {
      process.nextTick(stop, socket);
      return;
    }
    const now = performance.now();
    if (!watching) {
      watching = true;
      firstArrivalAt = now;
      setImmediate(endOfTurn);
      return;
    }
    // A second connection in one turn: the loop polled again after a full batch and the queue was not empty.
    if (now >= nextPauseAt) pause(now);
  });
}
