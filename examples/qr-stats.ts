/**
 * Prints scan statistics for every QR code: clicks, unique clicks and the top countries.
 *
 *   LINKGATE_BASE_URL=http://127.0.0.1:4010 LINKGATE_API_KEY=<key> node --import tsx examples/qr-stats.ts
 */
import { pathToFileURL } from 'node:url';
import { Linkgate, type LinkgateOptions } from 'linkgate';

/** One QR code's figures as this example reports them. */
export interface QrSummary {
  /** The code's id. */
  id: number;
  /** Its name. */
  name: string;
  /** All scans. */
  clicks: number;
  /** Scans by distinct visitors. */
  uniqueClicks: number;
  /** Up to three countries with the most scans, busiest first. */
  topCountries: [country: string, scans: number][];
}

/** Options of {@link main}. */
export interface QrStatsOptions extends LinkgateOptions {
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** Reads each QR code's statistics (one request per code) and prints a line per code. */
export async function main(options: QrStatsOptions = {}): Promise<QrSummary[]> {
  const { log = console.log, ...clientOptions } = options;
  const client = new Linkgate(clientOptions);
  const summaries: QrSummary[] = [];
  for await (const qr of client.qr.list()) {
    const { stats } = await client.qr.get(qr.id);
    // Top-N maps carry counts as strings ("18"); arrays appear when a code has no data.
    const countries = Array.isArray(stats.topCountries) ? {} : (stats.topCountries ?? {});
    const topCountries = Object.entries(countries)
      .map(([country, scans]): [string, number] => [country, Number(scans)])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3);
    summaries.push({ id: qr.id, name: qr.name, clicks: stats.clicks, uniqueClicks: stats.uniqueClicks, topCountries });
    const top = topCountries.map(([c, n]) => `${c} ${n}`).join(', ') || 'no scans yet';
    log(`#${qr.id} ${qr.name}: ${stats.clicks} scans (${stats.uniqueClicks} unique); top: ${top}`);
  }
  if (summaries.length === 0)
    log('no QR codes yet: create one with client.qr.create({ type: "link", data: "https://example.com" })');
  return summaries;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
