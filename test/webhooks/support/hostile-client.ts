// A hostile peer for receivers: posts a chunked body that trickles and never ends, and records when the answer came
// and when the receiver closed the connection. It re-states nothing of our API; it is just a slow, endless client.
import http from 'node:http';

/** What a trickling client saw. */
export interface Trickle {
  /** The answer, with ms from the start; rejects if the connection closed without one. */
  answered: Promise<{ status: number; body: string; ms: number }>;
  /** Ms from the start until the receiver closed the connection (never resolves while it stays open). */
  closed: Promise<number>;
  /** Bytes of body written so far. */
  sent(): number;
  /** Stops writing and closes the connection from this side. */
  stop(): void;
}

/** Options of {@link trickle}. */
export interface TrickleOptions {
  /** Bytes per write. @default 1024 */
  chunkBytes?: number;
  /** Ms between writes. @default 50 */
  everyMs?: number;
  /** Bytes written at once before trickling starts. @default 0 */
  burstBytes?: number;
}

/** Posts `headers` and a body that never ends to `url`. */
export function trickle(url: string, headers: Record<string, string>, options: TrickleOptions = {}): Trickle {
  const started = performance.now();
  const since = () => performance.now() - started;
  const chunk = Buffer.alloc(options.chunkBytes ?? 1024, 0x20);
  let sent = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  // Keep-alive, as fetch and the gateway ask: the receiver, not the client, decides when the connection ends.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const req = http.request(url, {
    method: 'POST',
    headers: { ...headers, 'transfer-encoding': 'chunked' },
    agent,
  });
  const answered = new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const ms = since();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status, body, ms }));
      res.on('error', () => resolve({ status, body, ms }));
    });
    req.on('close', () => reject(new Error(`closed without an answer after ${Math.round(since())} ms`)));
  });
  answered.catch(() => {});
  const closed = new Promise<number>((resolve) => {
    req.on('socket', (socket) => socket.on('close', () => resolve(since())));
  });
  // Writes fail once the receiver cuts the connection; that is the expected end.
  req.on('error', () => {});
  const write = (bytes: Buffer) => {
    if (req.destroyed) return;
    req.write(bytes);
    sent += bytes.byteLength;
  };
  req.flushHeaders();
  const burst = options.burstBytes ?? 0;
  for (let n = 0; n < burst; n += chunk.byteLength) write(chunk);
  timer = setInterval(() => write(chunk), options.everyMs ?? 50);
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  req.on('close', stopTimer);
  return {
    answered,
    closed,
    sent: () => sent,
    stop() {
      stopTimer();
      req.destroy();
      agent.destroy();
    },
  };
}
