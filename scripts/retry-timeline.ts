// Draws docs/retry-timeline.svg from a real run of the mock's gateway engine: two events to a receiver that always
// answers 500, on a ManualClock, so the picture shows exactly what the engine does (retries, circuit, dead letters).
// Run alone: node --import tsx scripts/retry-timeline.ts [out.svg]   (`npm run docs` runs it too)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CircuitTransition } from '../mock/delivery/circuit-breaker.js';
import type { AttemptRecord } from '../mock/delivery/delivery-attempt.js';
import { GatewayEngine } from '../mock/delivery/delivery-engine.js';
import { WebhookRouting } from '../mock/delivery/webhook-routing.js';
import { ManualClock } from '../mock/shared/manual-clock.js';

const RECEIVER = 'https://receiver.example/webhooks';
const TENANT = 'tenant_demo';
/** When the second event is published, in seconds after the first: while the circuit is open. */
const SECOND_EVENT_AT_S = 50;

/** What one run of the engine recorded. */
export interface RetryTimeline {
  /** Clock time of the first event (ms since the epoch). */
  start: number;
  /** Every attempt, including circuit drops, oldest first. */
  attempts: AttemptRecord[];
  /** Circuit state changes of the receiver URL. */
  circuit: CircuitTransition[];
  /** Dead-lettered events: delivery id and clock time. */
  deadLetters: { deliveryId: string; at: number }[];
  /** Delivery ids in publishing order (lane order). */
  deliveries: string[];
}

/** A deterministic [0, 1) generator so the drawing (delivery ids aside, which are not drawn) never changes by chance. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs the gateway engine against an always-failing receiver until every event is dead-lettered. */
export async function recordRetryTimeline(): Promise<RetryTimeline> {
  const clock = new ManualClock();
  const random = seeded(7);
  const routing = new WebhookRouting(random);
  routing.setTenant(TENANT, { url: RECEIVER, events: ['message.received'] });
  const receiver: typeof fetch = async () => new Response('{"status":"error"}', { status: 500 });
  const engine = new GatewayEngine(routing, { clock, fetch: receiver, random, jitterMs: 0 });

  const circuit: CircuitTransition[] = [];
  const deadLetters: RetryTimeline['deadLetters'] = [];
  engine.on('circuit', (t) => circuit.push(t));
  engine.on('dead-lettered', (d) => deadLetters.push({ deliveryId: d.deliveryId, at: d.at }));

  const start = clock.now();
  const deliveries: string[] = [];
  const publish = (n: number) => {
    const at = Math.floor(clock.now() / 1000);
    const result = engine.publish({
      tenant: TENANT,
      deviceId: 'device_1',
      event: 'message.received',
      payload: {
        event: 'message.received',
        device_id: 'device_1',
        timestamp: at,
        data: {
          message_id: `msg_${n}`,
          sender: '15550001111',
          sender_jid: '15550001111@s.example',
          has_media: false,
          timestamp: at,
        },
      },
    });
    if (!result.queued) throw new Error(`the timeline's event ${n} was not queued: ${result.dropped.reason}`);
    deliveries.push(result.deliveryId);
  };

  publish(1);
  let secondPublished = false;
  for (let guard = 0; guard < 1_000; guard++) {
    await engine.drain();
    if (deadLetters.length === 2) break;
    const next = clock.nextAt();
    const second = start + SECOND_EVENT_AT_S * 1000;
    if (!secondPublished && (next === null || next >= second)) {
      await clock.advanceTo(second);
      publish(2);
      secondPublished = true;
      continue;
    }
    if (next === null)
      throw new Error('the gateway stopped before dead-lettering both events; its retry logic changed');
    await clock.advanceTo(next);
  }
  return { start, attempts: engine.attempts(), circuit, deadLetters, deliveries };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Draws the timeline as a standalone SVG (no chart library): one lane per event, circuit-open spans shaded. */
export function renderRetryTimelineSvg(t: RetryTimeline): string {
  const end = Math.max(
    ...t.attempts.map((a) => a.startedAt),
    ...t.deadLetters.map((d) => d.at),
    ...t.circuit.map((c) => c.openUntil ?? c.at),
  );
  const spanS = Math.ceil((end - t.start) / 1000 / 10) * 10 + 10;
  const left = 120;
  const width = 1200;
  const plot = width - left - 30;
  const x = (ms: number) => left + ((ms - t.start) / 1000 / spanS) * plot;
  const laneY = (i: number) => 130 + i * 90;
  const axisY = laneY(t.deliveries.length - 1) + 60;
  const height = axisY + 90;
  const parts: string[] = [];

  // Shaded spans where the circuit was open (from each transition to `open` until its openUntil).
  for (const c of t.circuit) {
    if (c.to !== 'open' || c.openUntil === null) continue;
    parts.push(
      `<rect class="open" x="${x(c.at).toFixed(1)}" y="84" width="${(x(c.openUntil) - x(c.at)).toFixed(1)}" height="${axisY - 84}"/>`,
      c.from === 'half-open'
        ? `<text class="note" x="${(x(c.at) + 3).toFixed(1)}" y="80">probe failed</text>`
        : `<text class="note" x="${(x(c.at) + 3).toFixed(1)}" y="66">5 consecutive failures: circuit open 30 s, then half-open for one probe</text>`,
    );
  }
  // Time axis with ticks every 10 s.
  parts.push(`<line class="axis" x1="${left}" y1="${axisY}" x2="${left + plot}" y2="${axisY}"/>`);
  for (let s = 0; s <= spanS; s += 10) {
    const px = x(t.start + s * 1000).toFixed(1);
    parts.push(`<line class="tick" x1="${px}" y1="${axisY}" x2="${px}" y2="${axisY + 5}"/>`);
    parts.push(`<text class="tick" x="${px}" y="${axisY + 18}" text-anchor="middle">${s}</text>`);
  }
  parts.push(
    `<text class="label" x="${left + plot / 2}" y="${axisY + 38}" text-anchor="middle">seconds after the first event</text>`,
  );

  t.deliveries.forEach((id, lane) => {
    const y = laneY(lane);
    const mine = t.attempts.filter((a) => a.deliveryId === id);
    parts.push(`<text class="label" x="12" y="${y + 4}">event ${lane + 1}</text>`);
    parts.push(`<line class="lane" x1="${left}" y1="${y}" x2="${left + plot}" y2="${y}"/>`);
    let gaps = 0;
    mine.forEach((a, i) => {
      const px = x(a.startedAt);
      const prev = mine[i - 1];
      // Label the retry waits (after a real failure), staggered so the short early ones stay readable.
      if (prev?.outcome === 'failed' && prev.nextAttemptAt === a.startedAt) {
        const gap = Math.round((a.startedAt - prev.startedAt) / 1000);
        const mid = (x(prev.startedAt) + px) / 2;
        parts.push(
          `<text class="gap" x="${mid.toFixed(1)}" y="${y - (gaps++ % 2 ? 24 : 12)}" text-anchor="middle">+${gap} s</text>`,
        );
      }
      if (a.outcome === 'circuit-open') {
        parts.push(
          `<path class="drop" d="M${(px - 4).toFixed(1)},${y - 4}l8,8m0,-8l-8,8"><title>${esc(`attempt ${a.attempt} dropped with 503: circuit open`)}</title></path>`,
        );
        return;
      }
      parts.push(
        `<circle class="${a.outcome}" cx="${px.toFixed(1)}" cy="${y}" r="4.5"><title>${esc(`attempt ${a.attempt}: ${a.response?.status ?? a.error} (${a.outcome})`)}</title></circle>`,
        `<text class="n" x="${px.toFixed(1)}" y="${y + 18}" text-anchor="middle">${a.attempt}</text>`,
      );
    });
    const dead = t.deadLetters.find((d) => d.deliveryId === id);
    if (dead) {
      const px = x(dead.at);
      parts.push(
        `<rect class="dlq" x="${(px + 10).toFixed(1)}" y="${y - 7}" width="14" height="14"><title>dead-lettered</title></rect>`,
      );
      parts.push(`<text class="note" x="${(px + 28).toFixed(1)}" y="${y + 4}">dead-letter queue</text>`);
    }
  });

  const legendY = height - 22;
  parts.push(
    `<circle class="failed" cx="${left}" cy="${legendY}" r="6"/><text class="note" x="${left + 12}" y="${legendY + 4}">attempt answered 500 (number = attempt)</text>`,
    `<path class="drop" d="M${left + 275},${legendY - 5}l10,10m0,-10l-10,10"/><text class="note" x="${left + 292}" y="${legendY + 4}">dropped with 503 while the circuit is open</text>`,
    `<rect class="dlq" x="${left + 560}" y="${legendY - 7}" width="14" height="14"/><text class="note" x="${left + 580}" y="${legendY + 4}">dead-lettered after 6 attempts</text>`,
  );

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" role="img" aria-labelledby="title">
<title id="title">Webhook retry timeline of the linkgate mock gateway</title>
<style>
.open{fill:#f4c7c3;opacity:.55}.axis,.lane{stroke:#888;stroke-width:1}.tick{stroke:#888;font-size:11px;fill:#555}
.label{font-size:13px;fill:#222}.note{font-size:11px;fill:#444}.gap{font-size:11px;fill:#1f4e99}.n{font-size:10px;fill:#555}
.failed{fill:#d93025}.delivered{fill:#188038}.rejected{fill:#e37400}.drop{stroke:#555;stroke-width:2;fill:none}.dlq{fill:#222}
</style>
<text class="label" x="12" y="24" font-weight="bold">Retries 3, 6, 12, 24, 48 s; 5 consecutive failures open the circuit for 30 s; then one probe</text>
<text class="note" x="12" y="42">Recorded from the mock gateway engine (ManualClock, jitter off) delivering to a receiver that always answers 500; a second event arrives at ${SECOND_EVENT_AT_S} s.</text>
${parts.join('\n')}
</svg>
`;
}

/** Records a run and writes the SVG to `path`; returns how many attempts it drew. */
export async function writeRetryTimeline(path: string): Promise<{ attempts: number }> {
  const timeline = await recordRetryTimeline();
  writeFileSync(path, renderRetryTimelineSvg(timeline));
  return { attempts: timeline.attempts.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? fileURLToPath(new URL('../docs/retry-timeline.svg', import.meta.url));
  const { attempts } = await writeRetryTimeline(out);
  console.log(`wrote ${out} (${attempts} attempts)`);
}
