// Part 2: hostile deliveries to both receiver adapters: the Request path (createWebhookHandler called with a
// Request, as fetch-style runtimes do) and the node path (toNodeHandler on a real loopback node:http server).
// Forged secrets, stale and future timestamps, no-secret floods with endless bodies, endless and trickling bodies with
// the right secret. Counted: forgeries accepted, stale or future deliveries accepted, genuine deliveries refused,
// requests left hanging, bytes read before a no-secret request was refused, and peak memory growth.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  createTestDelivery,
  createWebhookHandler,
  toNodeHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { startNodeListener } from '../../test/mock/support/receiver.js';
import { sampleMemory } from './memory-peak.js';
import { startReceiverProcess } from './receiver-child.js';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

/** Growth of memory allowed while a flood of no-secret endless bodies hits one receiver. */
export const RECEIVER_MEMORY_BOUND_MB = 64;
/** The body time bound the suite's receivers are given (the default is 8 s; the suite keeps its waits short). */
const BODY_TIMEOUT_MS = 1_000;
/** A no-secret request must be refused at once; one with the right secret within the body time bound. */
const REFUSE_BOUND_MS = 1_000;
const BODY_BOUND_MS = BODY_TIMEOUT_MS + 3_000;
/** Every connection of the flood opens at once: the last of hundreds may wait for the first to be accepted. */
const FLOOD_ANSWER_BOUND_MS = 3_000;
const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
const SIZES = {
  ci: { forged: 120, flood: 150, floodBytes: 1024 * 1024 },
  full: { forged: 2_500, flood: 300, floodBytes: 1024 * 1024 },
};
/** Bytes a node-path receiver may have taken off a no-secret connection when it answers: socket buffers, no more. */
const READ_BEFORE_REFUSAL_BYTES = 256 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, 0x20);

interface Delivery {
  headers: Record<string, string>;
  body: string;
  deliveryId: string;
}

/** How one request went. */
interface Outcome {
  status: number;
  ms: number;
  /** Body bytes the receiver took before answering (Request path only; -1 where unknown). */
  read: number;
}

/** Runs the attacks on both adapters and reports. */
export async function attackReceivers(options: PartOptions = {}): Promise<PartReport> {
  const size = SIZES[options.size ?? 'full'];
  const forgeriesAccepted = new Examples();
  const staleAccepted = new Examples();
  const genuineRefused = new Examples();
  const hanging = new Examples();
  const readBeforeRefusal = new Examples();
  let peakMb = 0;
  let worst = '';
  let sent = 0;
  // A receiver may close a refused connection while the client is still sending; the client then often reads a
  // reset instead of the answer. That ends the request (nothing hangs), so it is counted, not judged.
  let closedUnanswered = 0;
  const junkAccepted = new Examples();
  for (const adapter of ['Request path', 'node path'] as const) {
    const handled = new Set<string>();
    const handlerOptions = {
      secret: SECRET,
      on: {
        'message.received': (_e: unknown, ctx: { deliveryId: string | undefined }) =>
          void handled.add(ctx.deliveryId ?? ''),
      },
      onError: () => {},
      bodyTimeoutMs: BODY_TIMEOUT_MS,
    } as WebhookHandlerOptions;
    const handler = createWebhookHandler(handlerOptions);
    const server = adapter === 'node path' ? await startNodeListener(toNodeHandler(handler)) : undefined;
    const deliver = (d: Delivery, body: BodySource = { text: d.body }): Promise<Outcome> =>
      server ? overHttp(server.url, d.headers, body) : toRequestHandler(handler, d.headers, body);
    try {
      // Genuine deliveries first: the attacks below mean nothing if the receiver refuses everything.
      for (let i = 0; i < 10; i++) {
        const d = delivery(SECRET, 0);
        const out = await deliver(d);
        sent++;
        if (out.status !== 200 || !handled.has(d.deliveryId)) genuineRefused.add(`${adapter}: HTTP ${out.status}`);
      }
      for (let i = 0; i < size.forged; i++) {
        const { name, headers } = forgery(i);
        const d = delivery(SECRET, 0);
        const out = await deliver({ ...d, headers: { ...d.headers, ...headers } });
        sent++;
        if (out.status < 300 || handled.has(d.deliveryId))
          forgeriesAccepted.add(`${adapter}: ${name} answered ${out.status}`);
      }
      for (const [name, offset] of [
        ['stale by 1 h', -3600],
        ['stale by 301 s', -301],
        ['future by 1 h', 3600],
        ['future by 301 s', 301],
      ] as const) {
        const d = delivery(SECRET, offset);
        const out = await deliver(d);
        sent++;
        if (out.status < 300 || handled.has(d.deliveryId))
          staleAccepted.add(`${adapter}: ${name} answered ${out.status}`);
      }

      // A flood of requests without a secret, each with a body that would go on for a megabyte; on the node path
      // against a receiver in its own process (its resident memory is the figure), from attackers in another.
      const victim = server ? await startReceiverProcess(SECRET, BODY_TIMEOUT_MS) : undefined;
      const attack = (d: Delivery, body: BodySource): Promise<Outcome> =>
        victim ? overHttp(victim.url, d.headers, body) : toRequestHandler(handler, d.headers, body);
      const memory = sampleMemory();
      const flood = victim
        ? await floodFromAnotherProcess(victim.url, size.flood, size.floodBytes)
        : await Promise.all(
            Array.from({ length: size.flood }, (_, i) => {
              const d = delivery(SECRET, 0);
              const { 'X-Service-Secret': _secret, ...headers } = d.headers;
              return attack(
                { ...d, headers: i % 2 ? headers : { ...headers, 'X-Service-Secret': '' } },
                { endless: size.floodBytes },
              );
            }),
          );
      sent += flood.length;
      // Endless and trickling bodies with the right secret: bounded in size and in time.
      const bodies = await Promise.all([
        ...[0, 1, 2].map(() => attack(delivery(SECRET, 0), { endless: 64 * 1024 * 1024 })),
        ...[0, 1, 2].map(() => attack(delivery(SECRET, 0), { trickle: 100 })),
        attack({ ...delivery('whsec_live_wrong', 0) }, { trickle: 100 }),
      ]);
      sent += bodies.length;
      const inProcess = memory.stop();
      const growth = victim ? { rssMb: victim.peakRssGrowthMb(), heapMb: 0 } : inProcess;
      const refusedAfter = victim ? (await victim.stats()).refusedAfter : [];
      await victim?.stop();
      const held = Math.max(growth.rssMb, growth.heapMb);
      if (held > peakMb) {
        peakMb = held;
        worst = victim
          ? `${adapter}: ${size.flood} no-secret endless bodies + 3 endless + 4 trickling, receiver in its own process: peak RSS +${growth.rssMb.toFixed(0)} MB`
          : `${adapter}: ${size.flood} no-secret endless bodies + 3 endless + 4 trickling (RSS +${growth.rssMb.toFixed(0)} MB, heap + buffers +${growth.heapMb.toFixed(0)} MB)`;
      }
      for (const out of flood) {
        if (out.status === 0 && out.ms <= FLOOD_ANSWER_BOUND_MS) closedUnanswered++;
        if (out.ms > FLOOD_ANSWER_BOUND_MS)
          hanging.add(
            `${adapter}: no-secret endless body answered ${out.status || 'never'} after ${Math.round(out.ms)} ms`,
          );
        if (out.read > 0) readBeforeRefusal.add(`${adapter}: ${out.read} bytes read before answering ${out.status}`);
      }
      for (const bytes of refusedAfter) {
        if (bytes > READ_BEFORE_REFUSAL_BYTES)
          readBeforeRefusal.add(`${adapter}: ${bytes} bytes off the socket before answering`);
      }
      bodies.forEach((out, i) => {
        const what =
          i < 3
            ? 'endless body, right secret'
            : i < 6
              ? 'trickling body, right secret'
              : 'trickling body, wrong secret';
        const bound = i < 6 ? BODY_BOUND_MS : REFUSE_BOUND_MS;
        if (out.status >= 200 && out.status < 300) junkAccepted.add(`${adapter}: ${what} answered ${out.status}`);
        if (out.status === 0 && out.ms <= bound) closedUnanswered++;
        if (out.ms > bound) {
          hanging.add(
            `${adapter}: ${what} answered ${out.status || 'never'} after ${Math.round(out.ms)} ms (bound ${bound} ms)`,
          );
        }
      });
    } finally {
      await server?.close();
    }
  }
  return {
    part: 'hostile deliveries to both receiver adapters',
    figures: {
      'requests sent': sent,
      'no-secret flood': `${size.flood} connections x ${size.floodBytes / 1024} KB per adapter`,
      'worst memory': worst,
      'connections closed before their answer could be read': closedUnanswered,
    },
    checks: [
      zeroCheck('forgeries accepted', forgeriesAccepted),
      zeroCheck('stale or future deliveries accepted', staleAccepted),
      zeroCheck('genuine deliveries refused', genuineRefused),
      zeroCheck('endless or trickling bodies accepted', junkAccepted),
      zeroCheck('requests left hanging (not ended within their bound)', hanging),
      zeroCheck('no-secret requests whose body was read before refusing', readBeforeRefusal),
      {
        name: 'peak memory growth under the flood',
        value: peakMb,
        max: RECEIVER_MEMORY_BOUND_MB,
        unit: 'MB',
        examples: [worst],
      },
    ],
  };
}

function delivery(secret: string, offsetSeconds: number): Delivery {
  const d = createTestDelivery({
    secret,
    timestamp: Math.floor(Date.now() / 1000) + offsetSeconds,
    event: 'message.received',
    data: {
      message_id: `3EB0${crypto.randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`,
      sender: '15551234567',
      sender_jid: '15551234567@s.whatsapp.net',
      push_name: 'Reliability',
      text: 'hello',
      has_media: false,
      timestamp: Math.floor(Date.now() / 1000),
    },
  } as Parameters<typeof createTestDelivery>[0]);
  return { headers: d.headers, body: d.body, deliveryId: d.deliveryId };
}

/** The i-th forged secret header, walking through the ways a secret can be almost right. */
function forgery(i: number): { name: string; headers: Record<string, string> } {
  const forms: [string, string][] = [
    ['last character changed', `${SECRET.slice(0, -1)}${SECRET.endsWith('f') ? 'e' : 'f'}`],
    ['first character changed', `X${SECRET.slice(1)}`],
    ['prefix only', SECRET.slice(0, 11)],
    ['one character short', SECRET.slice(0, -1)],
    ['one character extra', `${SECRET}0`],
    ['upper-cased', SECRET.toUpperCase()],
    ['empty', ''],
    ['same length, all zeros', '0'.repeat(SECRET.length)],
    ['twice, comma-joined', `${SECRET}, ${SECRET}`],
    ['other secret', 'whsec_live_ffffffffffffffffffffffffffffffff'],
    ['null byte inside', `${SECRET.slice(0, 20)}\u0000${SECRET.slice(21)}`.replace('\u0000', '%00')],
    ['huge', 'x'.repeat(8_000)],
  ];
  const [name, value] = forms[i % forms.length]!;
  return { name, headers: { 'X-Service-Secret': value } };
}

type BodySource = { text: string } | { endless: number } | { trickle: number };

/** Calls the Request-path handler with a streamed body, counting what it pulls before answering. */
async function toRequestHandler(
  handler: (request: Request) => Promise<Response>,
  headers: Record<string, string>,
  source: BodySource,
): Promise<Outcome> {
  let read = 0;
  let answered = false;
  let stream: ReadableStream<Uint8Array> | string;
  if ('text' in source) stream = source.text;
  else if ('endless' in source) {
    // highWaterMark 0: nothing is pulled until the handler reads, so `read` is what it asked for.
    stream = new ReadableStream(
      {
        pull(controller) {
          if (answered) return;
          if (read >= source.endless) return controller.close();
          read += CHUNK.length;
          controller.enqueue(new Uint8Array(CHUNK));
        },
      },
      { highWaterMark: 0 },
    );
  } else {
    const every = source.trickle;
    stream = new ReadableStream(
      {
        async pull(controller) {
          await new Promise((r) => setTimeout(r, every));
          if (answered || read > 100) return controller.close();
          read += 1;
          controller.enqueue(new Uint8Array([0x20]));
        },
      },
      { highWaterMark: 0 },
    );
  }
  const started = performance.now();
  const request = new Request('http://receiver.test/webhooks', {
    method: 'POST',
    headers,
    body: stream,
    duplex: 'half',
  } as RequestInit);
  const bound = new Promise<Response | null>((r) => setTimeout(() => r(null), BODY_BOUND_MS + 2_000).unref());
  const response = await Promise.race([handler(request), bound]);
  answered = true;
  const ms = performance.now() - started;
  await response?.text();
  return { status: response?.status ?? 0, ms, read: 'text' in source ? -1 : read };
}

/** Sends a delivery over HTTP to the node-path server, streaming the body with backpressure. */
function overHttp(url: string, headers: Record<string, string>, source: BodySource): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let done = false;
    let answeredAfter: number | undefined;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      clearInterval(trickle);
      req.destroy();
      resolve({ status, ms: answeredAfter ?? performance.now() - started, read: -1 });
    };
    const guard = setTimeout(() => finish(0), BODY_BOUND_MS + 2_000);
    let trickle: ReturnType<typeof setInterval> | undefined;
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      // Answered when the status arrives, even while our body is still being written.
      answeredAfter = performance.now() - started;
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 0));
      res.on('error', () => finish(res.statusCode ?? 0));
    });
    // A receiver that answers and closes mid-body is fine; an error before any answer is not.
    req.on('error', () => setTimeout(() => finish(0), 50));
    if ('text' in source) {
      req.end(source.text);
      return;
    }
    if ('trickle' in source) {
      trickle = setInterval(() => req.write(' '), source.trickle);
      return;
    }
    let written = 0;
    const pump = () => {
      while (!done && written < source.endless) {
        written += CHUNK.length;
        if (!req.write(CHUNK)) return;
      }
      if (!done) req.end();
    };
    req.on('drain', pump);
    pump();
  });
}

/** Runs the node-path flood from flood-process.ts in its own process and reads its outcomes. */
async function floodFromAnotherProcess(url: string, connections: number, bytes: number): Promise<Outcome[]> {
  const script = fileURLToPath(new URL('./flood-process.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, url, String(connections), String(bytes)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the flood process exited with ${code}: ${out}`);
  return (JSON.parse(out) as { status: number; ms: number }[]).map((r) => ({ ...r, read: -1 }));
}
