// The bundle-size budgets CI enforces (`npm run size`, and the bundle-size bench prints the same): one app per entry
// point people ship to browsers and edges, each measured standalone and added to a host app that already uses the
// design's stack (#30).
import { join } from 'node:path';
import { appEntry, root } from './app-bundle.js';
import { type FloorApp, hostOnKyAndZod, hostOnZod, kyAndEverySchema, kyAndOneSchema } from './floor-apps.js';

/** A limit on one figure: CI fails above `budgetKb`; `stretchKb`, where set, is a goal reported as met or not. */
export interface SizeLimit {
  /** CI fails above this many KB. */
  budgetKb: number;
  /** A tighter goal, printed PASS or MISS, not enforced. */
  stretchKb?: number;
}

/** One app whose bundle CI keeps within its budgets. */
export interface SizeBudget {
  /** What the app is, for the report. */
  name: string;
  /** The app's entry source (an app in bench/apps), bundled with esbuild for the browser, minified, then gzip -9. */
  source: string;
  /** The app bundled alone. */
  standalone: SizeLimit;
  /** The least any app of this kind ships, bundled the same way in the same run and printed beside the figure. */
  floor: FloorApp;
  /**
   * What linkgate adds to an app already on the design's stack: `host` bundled alone and with this app, the
   * difference judged by `budgetKb` (none: printed only).
   */
  added: { host: FloorApp } & Partial<SizeLimit>;
  /**
   * Measure the app against linkgate's entries as built for publishing (bench/support/package-build.ts) rather than
   * against the sources: what users bundle.
   */
  shipped?: boolean;
}

/**
 * The budgets of #30: the floors include the design's stack (ky, zod/mini), and so do the apps. History of the
 * earlier budgets is in docs/benchmarks.md.
 */
export const sizeBudgets: readonly SizeBudget[] = [
  {
    name: 'linkgate: MessagingClient, messages.send',
    source: appEntry('messaging'),
    standalone: { budgetKb: 23.4 },
    floor: kyAndOneSchema,
    added: { host: hostOnKyAndZod, budgetKb: 10.7, stretchKb: 9 },
    shipped: true,
  },
  {
    name: 'linkgate: Linkgate, one call (account.get)',
    source: appEntry('one-call'),
    standalone: { budgetKb: 27.7 },
    floor: kyAndOneSchema,
    added: { host: hostOnKyAndZod, budgetKb: 14.9 },
    shipped: true,
  },
  {
    name: 'linkgate: Linkgate, every resource called',
    source: appEntry('every-resource'),
    standalone: { budgetKb: 27.9 },
    floor: kyAndEverySchema,
    added: { host: hostOnKyAndZod, budgetKb: 15.2 },
    shipped: true,
  },
  {
    name: 'linkgate/webhooks: createWebhookHandler, every event',
    source: appEntry('webhook-receiver'),
    // On zod/mini it was 13.9-14.3 KB (2026-11-27); the zod-free shape table of #23 is gone (#30).
    standalone: { budgetKb: 14.5 },
    floor: {
      name: 'zod/mini, the five event schemas and their English issue messages, parsed',
      source: `import { EVENT_SCHEMAS, EventEnvelope } from ${JSON.stringify(join(root, 'src/schemas/events.ts'))};
import { ENGLISH } from ${JSON.stringify(join(root, 'src/webhooks/issue-messages.ts'))};
export const parse = (value) => (EVENT_SCHEMAS[value.event] ?? EventEnvelope).safeParse(value, ENGLISH);`,
    },
    added: { host: hostOnZod },
    shipped: true,
  },
];

/** One measured figure and what it is judged by: its limit (none: printed only) and the floor printed beside it. */
export interface SizeFigure {
  /** What was measured, e.g. `MessagingClient app, standalone`. */
  what: string;
  /** The figure, KB gzip. */
  kb: number;
  /** Its limit, if any. */
  limit?: SizeLimit;
  /** The floor beside it: its name and size in KB, printed with the figure's ratio to it. */
  floor?: { name: string; kb: number };
  /** Printed last, e.g. the host app a figure was added to. */
  note?: string;
}

/**
 * The verdict on one measured size: over its budget fails CI (MISS); a stretch goal is printed PASS or MISS without
 * failing; the floor (measured in the same run) is printed beside the figure with the ratio to it.
 */
export function judgeSize({ what, kb, limit, floor, note }: SizeFigure): { ok: boolean; line: string } {
  const ok = limit === undefined || kb <= limit.budgetKb;
  const verdict = (max: number) => `${kb <= max ? 'PASS' : 'MISS'}`;
  const parts = [`${what}: ${kb.toFixed(1)} KB gzip`];
  if (limit) parts.push(`budget <= ${limit.budgetKb} KB ${verdict(limit.budgetKb)}`);
  if (limit?.stretchKb !== undefined) parts.push(`stretch <= ${limit.stretchKb} KB ${verdict(limit.stretchKb)}`);
  if (floor) parts.push(`floor (${floor.name}) ${floor.kb.toFixed(1)} KB, ${(kb / floor.kb).toFixed(2)}x`);
  if (note) parts.push(note);
  return { ok, line: parts.join('; ') };
}

/**
 * The inspector page `linkgate mock` serves at `/` (one HTML document with its style and script inline), gzip -9 as
 * served. Measured 6.7 KB (2026-11-24, #14); the budget leaves room for small fixes, not for a UI library.
 */
export const inspectorPageBudget = {
  name: 'linkgate mock: the inspector page (HTML, inline style and script)',
  budgetKb: 8,
};
