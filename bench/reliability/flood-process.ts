// The no-secret flood's attackers, in their own process: their sockets and write buffers must not count as the
// receiver's memory, nor their event loop slow its answers. `node flood-process.ts <url> <connections> <bytes>`
// opens the connections at once, each a POST without a secret streaming up to <bytes> of body with backpressure,
// and prints one JSON line: per connection the status (0 = none) and the ms until the status arrived.
import { request } from 'node:http';

const [url, connections, bytes] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const CHUNK = Buffer.alloc(16 * 1024, 0x20);
const BOUND_MS = 10_000;

function attack(i: number): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let done = false;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-service-event': 'message.received',
      'x-service-delivery-id': `flood-${i}`,
      'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
    };
    // Half send no secret header at all, half an empty one.
    if (i % 2) headers['x-service-secret'] = '';
    const finish = (status: number) => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      req.destroy();
      resolve({ status, ms: performance.now() - started });
    };
    const guard = setTimeout(() => finish(0), BOUND_MS);
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      const ms = performance.now() - started;
      res.resume();
      done = true;
      clearTimeout(guard);
      req.destroy();
      resolve({ status: res.statusCode ?? 0, ms });
    });
    req.on('error', () => setTimeout(() => finish(0), 50));
    let written = 0;
    const pump = () => {
      while (!done && written < bytes) {
        written += CHUNK.length;
        if (!req.write(CHUNK)) return;
      }
      if (!done) req.end();
    };
    req.on('drain', pump);
    pump();
  });
}

const results = await Promise.all(Array.from({ length: connections }, (_, i) => attack(i)));
process.stdout.write(`${JSON.stringify(results)}\n`);
