// The headless Chromium the browser tests run in: where it is, how it is launched, and a loud skip without it.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Whether {@link CHROMIUM} exists; when it does not, says loudly what was therefore not proved (`unproved`), so a
 * run never passes silently without the browser.
 */
export function chromiumAvailable(suite: string, unproved: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  console.warn(
    `\n!!! ${suite} SKIPPED: ${CHROMIUM} does not exist, so ${unproved} was NOT proved in a real browser.\n` +
      '!!! Install it (apt-get install chromium; .ci/run does this) and run the tests again.\n',
  );
  return false;
}

/** Launches headless Chromium; Playwright gives each launch a fresh temporary profile of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
