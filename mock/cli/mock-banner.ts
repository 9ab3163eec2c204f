// What `linkgate mock` prints once it listens: the URL, the keys of the seeded users and whose data they see, the
// control token and the commands that use it. A pure function of the running server and the options.
import { randomBytes } from 'node:crypto';
import type { MockServer } from '../adapters/node-server.js';
import type { RateLimitOptions } from '../management/rate-limit.js';
import { PRODUCTION_VARIANT_NAMES } from '../management/variants.js';
import type { MockCliOptions } from './mock-options.js';

/**
 * The events the banner's attach example selects: the documented default ones and receipts (`message.ack`), which a
 * receiver like the README's handles and a user trying the mock expects to see.
 */
export const BANNER_EXAMPLE_EVENTS = ['message.received', 'message.ack', 'device.status'] as const;

/**
 * The banner `linkgate mock` prints once it listens: where, with which keys and tokens, and how to drive it.
 * `receiverSecret` is the webhook secret its attach example sets and tells the receiver to check (made at random
 * when not given): a receiver started as the banner says accepts the first delivery.
 */
export function formatBanner(
  server: MockServer,
  options: MockCliOptions,
  receiverSecret = `whsec_live_${randomBytes(16).toString('hex')}`,
): string {
  const { store, gateway } = server.backend;
  const users = [...store.users.values()];
  // Loops, not Math.max(...) over the users: a spread of a large state's users overflows the stack.
  const width = users.reduce((most, u) => Math.max(most, u.username.length), 8);
  const limit = options.rateLimit === false ? 'off' : describeLimit(server.backend.options.rateLimit);
  const variants = PRODUCTION_VARIANT_NAMES.filter((name) => server.backend.options.variants[name]);
  // Each table counted per owner in one pass: a scan per user held the first answer 9.8 s at 20,000 users (issue 31).
  const countsBy = (rows: Iterable<{ userId: number }>) => {
    const counts = new Map<number, number>();
    for (const row of rows) counts.set(row.userId, (counts.get(row.userId) ?? 0) + 1);
    return counts;
  };
  const domains = countsBy(store.domains.values());
  const pixels = countsBy(store.pixels.values());
  const qrs = countsBy(store.qrs.values());
  const owned = (userId: number) => {
    const parts = [
      [domains.get(userId) ?? 0, 'domain'],
      [pixels.get(userId) ?? 0, 'pixel'],
      [qrs.get(userId) ?? 0, 'QR code'],
    ] as const;
    const owns = parts.filter(([n]) => n !== 0).map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
    return owns.length === 0 ? 'no data' : `owns ${owns.join(', ')}`;
  };
  const owners = users.filter((u) => owned(u.id) !== 'no data').map((u) => u.username);
  const admin = users.find((u) => u.admin);
  const auth = `-H "Authorization: Bearer ${gateway.controlToken}"`;
  const lines = [
    `linkgate mock listening on ${server.url}`,
    `  seed: ${options.seed}, rate limit: ${limit}, clock: ${options.clock ? 'manual (POST /__mock/clock/advance)' : 'real'}`,
    ...(variants.length > 0 ? [`  production variants: ${variants.join(', ')}`] : []),
    `  OpenAPI document: ${server.url}/openapi.json`,
    // The token rides in the fragment: browsers never send it, so no request log (ours or a proxy's) records it.
    `  Inspector (live page of data, deliveries, circuits, dead letters, pairing): ${server.url}/#token=${gateway.controlToken}`,
    '',
    `  API keys (send as "Authorization: Bearer <key>"); each user sees only their own data:`,
    ...users.map((u) => `    ${u.username.padEnd(width)}  ${u.apikey}  ${u.admin ? '(admin) ' : ''}${owned(u.id)}`),
    // The admin's key comes first, but its lists are empty: say whose key shows the demo data.
    ...(admin && owners.length > 0 && !owners.includes(admin.username)
      ? [
          `    The demo data belongs to ${owners.join(' and ')}: use their keys to see it; ${admin.username}'s lists are empty.`,
        ]
      : []),
    '',
    `  Messaging API (/api/v1/...): ${options.gateway?.messagingKey ? `key ${options.gateway.messagingKey} (tenant "default")` : 'no key yet; create one with POST /__mock/keys'}`,
    ...(options.gateway?.devices?.length
      ? [`  Online devices (tenant "default"): ${options.gateway.devices.map((d) => d.id).join(', ')}`]
      : []),
    `  Control API: ${server.url}/__mock/ lists its endpoints; token ${gateway.controlToken} (send "Authorization: Bearer <token>")`,
    `    reset to the start seed:  curl -X POST ${server.url}/__mock/reset ${auth}`,
    `    attach a webhook receiver (https, or plain http ${options.gateway?.allowHttpReceivers ? 'on any host' : 'on loopback; --allow-http-receivers for any host'}):`,
    // The secret is set by the attach call and given to the receiver: one the mock made alone, no receiver knows.
    `      start the receiver with WEBHOOK_SECRET=${receiverSecret} (deliveries are signed with it), then:`,
    `      curl ${server.url}/__mock/webhooks ${auth} -H "Content-Type: application/json" \\`,
    `        -d '${JSON.stringify({ url: 'http://127.0.0.1:3000/webhooks', secret: receiverSecret, events: BANNER_EXAMPLE_EVENTS })}'`,
    '',
    `Stop with Ctrl+C.${options.quiet ? '' : ' One line per request, delivery attempt, circuit change and dead letter follows (--quiet turns them off).'}`,
    '',
  ];
  return lines.join('\n');
}

function describeLimit(rule: RateLimitOptions | false): string {
  return rule === false ? 'off' : `${rule.limit} requests per ${rule.windowMs / 1000} s per key`;
}
