// The wire forms of faults (mock/faults) on a real connection: the backend decided the fault and described it
// (`MockResponse.fault.wire`); here node:http plays it, byte for byte, as a failing server or network would.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../../src/shared/clock.js';
import type { MockResponse, WireForm } from '../http/types.js';

/** Connections a fault holds open (a hang, a trickle): a closing server drops them rather than wait on them. */
export const heldOpen = new WeakSet<Socket>();

/**
 * Plays `res`'s wire form on the connection: `hang` writes nothing until the client goes; `reset` destroys the socket
 * before any byte; `reset-after-headers` flushes the status line and headers, then resets it; `cut-body` sends the
 * headers with the whole body's length and the first bytes, then closes it; `trickle` writes the body a few bytes
 * at a time on `clock`. `ended` is called once the exchange is over, however it ended.
 */
export function playNodeFault(
  res: ServerResponse,
  answer: MockResponse & { fault: { wire: WireForm } },
  headers: string[],
  clock: Clock,
  ended: () => void,
): void {
  const socket = res.socket;
  const wire = answer.fault.wire;
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body);
  res.once('close', ended);
  switch (wire.form) {
    case 'hang':
      if (socket) heldOpen.add(socket);
      return;
    case 'reset':
      // No status line, no byte: the client sees the connection reset (ECONNRESET, "socket hang up").
      socket?.resetAndDestroy();
      return;
    case 'reset-after-headers':
      res.writeHead(answer.status, headers);
      res.flushHeaders();
      cutAfterWrite(res, 'reset');
      return;
    case 'cut-body':
      res.writeHead(answer.status, headers);
      res.write(body.subarray(0, wire.bytes));
      cutAfterWrite(res, 'close');
      return;
    case 'trickle':
      if (socket) heldOpen.add(socket);
      res.writeHead(answer.status, headers);
      res.flushHeaders();
      trickle(res, body, wire.chunkBytes, wire.intervalMs, clock);
      return;
  }
}

/**
 * Ends the connection once what was written has left, so the client reads those bytes and then the cut: a `reset`
 * (RST: ECONNRESET), or a `close` (FIN) short of the declared length (a premature end, "incomplete read").
 */
function cutAfterWrite(res: ServerResponse, how: 'reset' | 'close'): void {
  const socket = res.socket;
  if (!socket) return;
  // An empty write's callback runs after everything queued before it is flushed to the kernel.
  socket.write('', () => (how === 'reset' ? socket.resetAndDestroy() : socket.destroy()));
}

function trickle(res: ServerResponse, body: Buffer, chunk: number, interval: number, clock: Clock): void {
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= body.byteLength) {
      res.end();
      return;
    }
    res.write(body.subarray(at, at + chunk));
    at += chunk;
    clock.setTimeout(next, interval);
  };
  clock.setTimeout(next, interval);
}
