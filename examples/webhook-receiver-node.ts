/**
 * A webhook receiver on plain `node:http`: checks the secret (constant time), the timestamp and the payload, drops
 * repeated deliveries, routes each event to its handler, and answers the gateway (200, or 500 so it retries).
 *
 *   WEBHOOK_SECRET=whsec_live_<32 hex> PORT=3000 node --import tsx examples/webhook-receiver-node.ts
 *
 * Point the gateway (or the mock: POST /__mock/webhooks) at http://127.0.0.1:3000/webhooks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createWebhookHandler, MemoryDedupeStore, toNodeHandler, type WebhookEvent } from 'linkgate/webhooks';

/** Options of {@link main}. */
export interface NodeReceiverOptions {
  /** The webhook secret (`whsec_live_…` or `whsec_dev_…`). @default process.env.WEBHOOK_SECRET */
  secret?: string;
  /** Port to listen on; 0 picks a free one. @default process.env.PORT or 3000 */
  port?: number;
  /** Host to listen on. @default '127.0.0.1' */
  host?: string;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** A running receiver. */
export interface NodeReceiver {
  /** The webhook URL to configure in the gateway. */
  url: string;
  /** Every event handled, in order (duplicates are not handled twice). */
  received: WebhookEvent[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts the receiver and resolves once it listens. */
export async function main(options: NodeReceiverOptions = {}): Promise<NodeReceiver> {
  const secret = options.secret ?? process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET (whsec_live_ followed by 32 hex characters) or pass { secret }.');
  const log = options.log ?? console.log;
  const received: WebhookEvent[] = [];

  const handler = createWebhookHandler({
    secret,
    dedupe: new MemoryDedupeStore(),
    on: {
      'message.received': (event) => {
        received.push(event);
        log(`${event.device_id}: message from ${event.data.sender}: ${event.data.text ?? '(media)'}`);
      },
      'message.ack': (event) => {
        received.push(event);
        log(`${event.device_id}: ${event.data.message_id} is ${event.data.status}`);
      },
      'device.status': (event) => {
        received.push(event);
        log(`${event.device_id}: device is ${event.data.status}${event.data.reason ? ` (${event.data.reason})` : ''}`);
      },
    },
    onRejected: (error) => log(`refused a delivery: ${error.code}`),
  });

  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/webhooks') {
      res.writeHead(404).end();
      return;
    }
    void toNodeHandler(handler)(req, res);
  });
  const port = options.port ?? Number(process.env.PORT ?? 3000);
  await new Promise<void>((resolve) => server.listen(port, options.host ?? '127.0.0.1', resolve));
  const { address, port: bound } = server.address() as AddressInfo;
  const url = `http://${address}:${bound}/webhooks`;
  log(`listening for webhooks on ${url}`);
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
