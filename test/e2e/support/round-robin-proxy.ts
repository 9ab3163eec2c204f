// A load balancer for receiver replicas in the end-to-end tests: a small HTTP proxy on 127.0.0.1 that sends each
// request to the next upstream in turn (per request, not per connection, since the gateway keeps connections alive),
// and records which replica answered which delivery.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy passed on. */
export interface ProxiedRequest {
  /** The index of the upstream that got it. */
  upstream: number;
  /** Its `X-Service-Delivery-ID` header. */
  deliveryId: string | undefined;
  /** The upstream's answer, or 502 when it could not be reached. */
  status: number;
}

/** A running proxy. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>/webhooks` */
  url: string;
  /** Every request passed on so far, in the order they were answered. */
  served: ProxiedRequest[];
  close(): Promise<void>;
}

/** Starts a proxy in front of `upstreams` (base URLs; the request's path is appended). */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const served: ProxiedRequest[] = [];
  let next = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = next++ % upstreams.length;
    const target = new URL(req.url ?? '/', upstreams[upstream]);
    const deliveryId = req.headers['x-service-delivery-id'] as string | undefined;
    const forward = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      served.push({ upstream, deliveryId, status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => {
      // A replica that is down answers as a load balancer would: 502, which the gateway retries.
      served.push({ upstream, deliveryId, status: 502 });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"bad_gateway"}');
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
