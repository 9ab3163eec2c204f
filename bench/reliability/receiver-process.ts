// A webhook receiver as users run one: its own node process, `toNodeHandler(createWebhookHandler(...))` on a loopback
// node:http server, so a flood's cost shows in this process's resident memory and nowhere else. Prints its URL;
// `GET /stats` answers what it measured: for each request refused without a secret, how many bytes its socket had
// delivered when the answer went out (all of the body means it was read before refusing), and the deliveries it handled.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';

const [secret, bodyTimeoutMs] = [process.argv[2]!, Number(process.argv[3])];
const refusedAfter: number[] = [];
let handled = 0;
const handler = toNodeHandler(
  createWebhookHandler({
    secret,
    bodyTimeoutMs,
    on: { 'message.received': () => void handled++ },
    onError: () => {},
  } as WebhookHandlerOptions),
);
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.end(JSON.stringify({ refusedAfter, handled }));
    return;
  }
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
  res.writeHead = ((...args: unknown[]) => {
    if (!req.headers['x-service-secret']) refusedAfter.push(req.socket.bytesRead);
    return writeHead(...args);
  }) as typeof res.writeHead;
  return handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks\n`);
});
process.on('SIGTERM', () => process.exit(0));
