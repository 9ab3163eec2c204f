import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockBackend } from 'linkgate/mock';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBrowserExample, serveDirectory } from '../../examples/browser/serve.js';
import { chromiumAvailable, launchChromium } from './support/chromium.js';

const hasChromium = chromiumAvailable('test/browser', 'the SDK');

describe.skipIf(!hasChromium)('the browser example in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let served: Awaited<ReturnType<typeof serveDirectory>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkgate-browser-'));
    await buildBrowserExample(dir);
    served = await serveDirectory(dir);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the domains the mock holds for the user, through the SDK and msw’s service worker', async () => {
    // The same seed in Node says what the page must show: alice's domains in the demo data.
    const reference = createMockBackend({ seed: 'demo' });
    const alice = [...reference.store.users.values()].find((u) => u.username === 'alice')!;
    const expected = [...reference.store.domains.values()].filter((d) => d.userId === alice.id).map((d) => d.domain);
    expect(expected.length).toBeGreaterThan(1);

    const context = await browser.newContext();
    const page = await context.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
    try {
      await page.goto(served.url);
      const status = page.locator('#status:not([data-state="loading"])');
      await status.waitFor({ timeout: 20_000 });
      const state = await page.locator('#status').getAttribute('data-state');
      expect(state, `page said: ${await page.locator('#status').textContent()}\n${logs.join('\n')}`).toBe('done');

      // The mock lists newest first; the page shows them in the order the SDK yielded them.
      expect((await page.locator('#domains li').allTextContents()).sort()).toEqual(expected.sort());
      // The service worker answered the API calls: none reached the static server.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      expect(served.requests.filter((p) => p.startsWith('/api/'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
