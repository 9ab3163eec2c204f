// An app's test suite as the README shows it: the mock's msw handlers next to the app's own `/api` routes, and the
// app's webhook receiver at `/api/webhooks` (the README's Next.js route) receiving the mock gateway's deliveries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockBackend } from 'linkgate/mock';
import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SECRET = `whsec_live_${'a1'.repeat(16)}`;
const received: string[] = [];

// The app itself: its own health route and its webhook receiver, built with linkgate's defaults.
let app: Server;
let appUrl: string;
beforeAll(async () => {
  const receiver = toNodeHandler(
    createWebhookHandler({
      secret: SECRET,
      on: { 'message.received': (event) => void received.push(event.data.message_id) },
    }),
  );
  app = createServer((req, res) => {
    if (req.url === '/api/webhooks') return void receiver(req, res);
    if (req.url === '/api/health') return void res.end(JSON.stringify({ ok: true, from: 'app' }));
    res.statusCode = 404;
    res.end('app: not found');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://localhost:${(app.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())));

const backend = createMockBackend({ seed: 'demo' });
const unhandled: string[] = [];
const server = setupServer(
  ...backend.handlers,
  // The app's own msw handler for a route of another service, beside the mock's.
  http.post('https://payments.example.com/api/charge', () => HttpResponse.json({ charged: true })),
);
beforeAll(() => {
  server.events.on('request:unhandled', ({ request }) => void unhandled.push(new URL(request.url).pathname));
  server.listen({ onUnhandledFrame: 'bypass' });
});
afterAll(() => server.close());

describe('msw handlers of the mock beside an app with its own /api routes', () => {
  it("answers the mock's API while the app's routes and handlers answer their own paths", async () => {
    const account = await fetch('https://short.example/api/account', {
      headers: { authorization: `Bearer ${backend.adminKey}` },
    });
    expect((await account.json()).error).toBe(0);

    const health = await fetch(`${appUrl}/api/health`);
    expect(await health.json()).toEqual({ ok: true, from: 'app' });
    const charge = await fetch('https://payments.example.com/api/charge', { method: 'POST' });
    expect(await charge.json()).toEqual({ charged: true });
    // msw saw the app's own request as unhandled (its warning fires), not as the mock's.
    expect(unhandled).toContain('/api/health');
  });

  it('delivers the gateway’s webhook to the receiver at /api/webhooks instead of answering it 404', async () => {
    const gateway = backend.gateway;
    gateway.routing.setTenant('default', { url: `${appUrl}/api/webhooks`, secret: SECRET });
    const device = gateway.devices.add({});
    const { message_id } = gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hi' }) as {
      message_id: string;
    };
    await gateway.drain();

    expect(received).toContain(message_id);
    expect(gateway.attempts().map((a) => [a.response?.status, a.outcome])).toEqual([[200, 'delivered']]);
    expect(gateway.deadLetters.list()).toEqual([]);
  });
});
