/**
 * A webhook receiver as a Hono route: the handler from `createWebhookHandler` takes the raw `Request`, so it fits
 * any fetch framework (Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers) as is.
 *
 *   WEBHOOK_SECRET=whsec_live_<32 hex> PORT=3000 node --import tsx examples/webhook-receiver-hono.ts
 *
 * On Bun, Deno or Workers, `export default app` instead of the Node server at the bottom.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { createWebhookHandler, toNodeHandler, type WebhookEvent } from 'linkgate/webhooks';

/** Builds the Hono app: `POST /webhooks` receives deliveries, `GET /events` shows what arrived. */
export function createApp(secret: string, log: (line: string) => void = console.log) {
  const received: WebhookEvent[] = [];
  const webhooks = createWebhookHandler({
    secret,
    on: {
      'message.received': async (event) => {
        received.push(event);
        log(`message ${event.data.message_id} from ${event.data.push_name ?? event.data.sender}`);
      },
      'device.status': (event) => {
        received.push(event);
        log(`device ${event.device_id} is ${event.data.status}`);
      },
    },
  });
  const app = new Hono();
  // Hand Hono's raw Request to the handler: it must see the body exactly as sent, so do not parse it first.
  app.post('/webhooks', (c) => webhooks(c.req.raw));
  app.get('/events', (c) => c.json(received.map((e) => ({ event: e.event, device_id: e.device_id }))));
  return { app, received };
}

/** Options of {@link main}. */
export interface HonoReceiverOptions {
  /** The webhook secret. @default process.env.WEBHOOK_SECRET */
  secret?: string;
  /** Port; 0 picks a free one. @default process.env.PORT or 3000 */
  port?: number;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** Serves the app on 127.0.0.1 with `node:http` (linkgate's toNodeHandler bridges it; @hono/node-server works too). */
export async function main(options: HonoReceiverOptions = {}) {
  const secret = options.secret ?? process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET (whsec_live_ followed by 32 hex characters) or pass { secret }.');
  const log = options.log ?? console.log;
  const { app, received } = createApp(secret, log);
  const server = createServer(toNodeHandler((request: Request) => Promise.resolve(app.fetch(request))));
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? Number(process.env.PORT ?? 3000), '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/webhooks`;
  log(`listening for webhooks on ${url}`);
  return { url, app, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
