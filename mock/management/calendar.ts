import { DATE_TIME_PATTERN } from '../../src/schemas/primitives.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats a time (ms since the epoch) the way the service writes dates: `YYYY-MM-DD HH:MM:SS`, UTC. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** Reads a `YYYY-MM-DD HH:MM:SS` date (UTC) into ms since the epoch; undefined when it is not a real calendar time. */
export function parseDate(text: string): number | undefined {
  if (!DATE_TIME_PATTERN.test(text)) return undefined;
  const [y, mo, d, h, mi, s] = text.split(/[- :]/).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls 2026-02-30 over to March; a round trip catches dates that do not exist.
  return formatDate(ms) === text ? ms : undefined;
}

/**
 * Adds whole calendar months, clamping to the month's last day (Jan 31 + 1 month = Feb 28), so a monthly
 * subscription never skips a month.
 */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}
