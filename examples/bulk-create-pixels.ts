/**
 * Creates 100 tracking pixels under the API's limit of 30 requests per minute: the client holds requests until the
 * window resets (instead of failing), and `onRateLimit` reports each wait, so the run takes about 4 minutes.
 *
 *   LINKGATE_BASE_URL=http://127.0.0.1:4010 LINKGATE_API_KEY=<key> node --import tsx examples/bulk-create-pixels.ts
 */
import { pathToFileURL } from 'node:url';
import { Linkgate, type LinkgateOptions, type RateLimitEvent } from 'linkgate';

/** Options of {@link main}. */
export interface BulkCreatePixelsOptions extends LinkgateOptions {
  /** How many pixels to create. @default 100 */
  count?: number;
  /** Tags are `G-<batch><n>`; a new batch per run keeps tags unique (the API refuses a repeated provider + tag). @default a time-based id */
  batch?: string;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** Creates `count` Google Analytics pixels one after another and returns their ids. */
export async function main(options: BulkCreatePixelsOptions = {}): Promise<number[]> {
  const { count = 100, batch = Date.now().toString(36).toUpperCase(), log = console.log, ...clientOptions } = options;
  const client = new Linkgate({
    ...clientOptions,
    // 'wait' is the default: a request that finds the budget spent waits for the window to reset.
    rateLimit: 'wait',
    maxRateLimitWait: 120_000,
    onRateLimit: (event: RateLimitEvent) => {
      log(
        `rate limit: ${event.remaining}/${event.limit} left, waiting ${Math.ceil(event.waitMs / 1000)} s (${event.reason})`,
      );
      clientOptions.onRateLimit?.(event);
    },
  });
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    const { id } = await client.pixels.create({
      type: 'gapixel',
      name: `Campaign ${batch} #${n}`,
      tag: `G-${batch}${n}`,
    });
    ids.push(id);
    if (n % 10 === 0 || n === count) {
      const budget = client.rateLimit;
      log(`created ${n}/${count}${budget ? ` (${budget.remaining} requests left in this window)` : ''}`);
    }
  }
  return ids;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
