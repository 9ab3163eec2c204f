import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RetryTimeline, recordRetryTimeline, renderRetryTimelineSvg } from '../../../scripts/retry-timeline.js';

let timeline: RetryTimeline;
const seconds = (ms: number) => (ms - timeline.start) / 1000;
const realAttempts = (lane: number) =>
  timeline.attempts.filter((a) => a.deliveryId === timeline.deliveries[lane] && a.outcome !== 'circuit-open');

beforeAll(async () => {
  timeline = await recordRetryTimeline();
});

describe('the retry timeline drawn in docs/retry-timeline.svg', () => {
  it('shows the first event tried at 0 s then after waits of 3, 6, 12 and 24 s until the circuit opens', () => {
    const times = realAttempts(0)
      .slice(0, 5)
      .map((a) => seconds(a.startedAt));
    expect(times).toEqual([0, 3, 9, 21, 45]);
  });

  it('shows the circuit opening for 30 s at the 5th consecutive failure', () => {
    const first = timeline.circuit[0]!;
    expect(first).toMatchObject({ from: 'closed', to: 'open' });
    expect(seconds(first.at)).toBe(45);
    expect(seconds(first.openUntil!)).toBe(75);
  });

  it('shows a failed probe re-opening the circuit for another 30 s', () => {
    const reopen = timeline.circuit.find((c) => c.from === 'half-open');
    expect(reopen?.to).toBe('open');
    expect(reopen!.openUntil! - reopen!.at).toBe(30_000);
  });

  it('shows attempts during an open circuit dropped with 503 without calling the receiver', () => {
    const drops = timeline.attempts.filter((a) => a.outcome === 'circuit-open');
    expect(drops.length).toBeGreaterThan(0);
    for (const d of drops) expect(d.response?.status).toBe(503);
  });

  it('shows each event dead-lettered after its 6th real attempt', () => {
    expect(timeline.deadLetters.map((d) => d.deliveryId).sort()).toEqual([...timeline.deliveries].sort());
    for (const lane of [0, 1]) expect(realAttempts(lane).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('draws one mark per recorded attempt and a square per dead letter', () => {
    const svg = renderRetryTimelineSvg(timeline);
    const circles = svg.match(/<circle class="failed" cx=/g) ?? [];
    const drops = svg.match(/<path class="drop" d=/g) ?? [];
    // The legend draws one of each besides the data.
    expect(circles.length - 1).toBe(timeline.attempts.filter((a) => a.outcome === 'failed').length);
    expect(drops.length - 1).toBe(timeline.attempts.filter((a) => a.outcome === 'circuit-open').length);
    expect((svg.match(/<rect class="dlq"/g) ?? []).length - 1).toBe(timeline.deadLetters.length);
  });

  it('is the committed docs/retry-timeline.svg (run `npm run docs` after changing the gateway)', () => {
    const committed = readFileSync(new URL('../../../docs/retry-timeline.svg', import.meta.url), 'utf8');
    expect(committed).toBe(renderRetryTimelineSvg(timeline));
  });
});
