import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliServer, type NodeProcess, spawnNode, startCli } from '../e2e/support/processes.js';
import { chromiumAvailable, launchChromium } from './support/chromium.js';
import { controlApi } from './support/control-api.js';

const hasChromium = chromiumAvailable('test/browser/inspector-layout', "the inspector page's layout");

const TOKEN = 'ctl_inspector_layout_0123456789';
const ADMIN = 'admin_layout_key_0123456789abcdef';
const WAIT = { timeout: 20_000 };

/** Each `<code>` shown on the page (URLs, secrets, ids): its text and the character before each of its line breaks. */
function lineBreaks(page: Page): Promise<{ text: string; after: string[] }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('#app code')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const after: string[] = [];
        let top: number | undefined;
        let previous = '';
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
          for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (!rect || rect.width === 0) continue;
            if (top !== undefined && rect.top > top + 2) after.push(previous);
            top = rect.top;
            previous = node.data[i]!;
          }
        }
        return { text: el.textContent ?? '', after };
      }),
  );
}

describe.skipIf(!hasChromium)('the inspector page laid out for reading, in headless Chromium', () => {
  let browser: Browser;
  let cli: CliServer;
  let rx: NodeProcess;
  let receiver: string;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  // Each test has its own server and receiver: test/e2e/support/processes.ts ends child processes after each test.
  beforeEach(async () => {
    cli = await startCli([
      '--clock',
      'manual',
      '--control-token',
      TOKEN,
      '--admin-key',
      ADMIN,
      '--rate-limit',
      'off',
      '--device',
      'dev_phone',
    ]);
    rx = spawnNode(['test/browser/inspector-receiver.mjs']);
    receiver = (await rx.printed(/receiver listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  }, 60_000);

  afterEach(async () => {
    rx.child.kill('SIGTERM');
    expect(await cli.stop()).toBe(0);
  });

  async function openPage(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${cli.url}/#token=${TOKEN}`);
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    return page;
  }

  it("shows a dead endpoint's attempts numbered as the gateway counts them, circuit drops as drops, and when it will be dead-lettered", async () => {
    const control = controlApi(cli.url, TOKEN);
    await control.send('POST', '/__mock/webhooks', { url: `${receiver}/dead` });
    // Three events to a receiver that always answers 503: five failures open its circuit, the rest are held by it.
    for (const text of ['one', 'two', 'three'])
      await control.send('POST', '/__mock/simulate/message', { device_id: 'dev_phone', sender: '15551234567', text });
    const page = await openPage(1280);
    try {
      for (let i = 0; i < 8; i++) await control.advanceToNextDue();
      await page.locator('.attempt[data-outcome="circuit-open"]').first().waitFor(WAIT);
      await page.waitForTimeout(300);
      const deliveries = await page.locator('.delivery').evaluateAll((articles) =>
        articles.map((a) => ({
          rows: [...a.querySelectorAll('.attempt')].map((li) => ({
            text: li.textContent ?? '',
            attempt: Number((li as HTMLElement).dataset.attempt),
            held: (li as HTMLElement).dataset.outcome === 'circuit-open',
          })),
          next: a.querySelector('.next')?.textContent ?? '',
          numbered: a.querySelectorAll('ol').length,
        })),
      );
      expect(deliveries).toHaveLength(3);
      for (const d of deliveries) {
        // No list numbering of its own that disagrees with the attempts' numbers.
        expect(d.numbered).toBe(0);
        const sent = d.rows.filter((r) => !r.held);
        // Each attempt sent appears once, in order, numbered out of 6.
        expect(sent.map((r) => r.attempt)).toEqual(sent.map((_, i) => i + 1));
        for (const r of sent)
          expect(r.text).toMatch(new RegExp(`^attempt ${r.attempt} of 6( \\(probe\\))? at [\\d:.]+: 503 failed`));
        // A run of drops by the open circuit is one row saying so, naming the attempt it held; never "#3" seven times.
        for (const [i, r] of d.rows.entries()) {
          if (!r.held) continue;
          expect(r.text).toMatch(
            new RegExp(
              `^attempt ${r.attempt} of 6 held by the open circuit( \\d+ times)? (from [\\d:.]+ to|at) [\\d:.]+: no request sent$`,
            ),
          );
          expect(d.rows[i - 1]?.held && d.rows[i - 1]?.attempt === r.attempt).toBeFalsy();
        }
        // Where it stands: the attempt after the last one sent, when, and when it is dead-lettered if all keep failing.
        expect(d.next).toMatch(
          new RegExp(
            `^attempt ${sent.length + 1} of 6 (due|waits for the circuit's probe, at the latest) (in [\\d.]+ s|due now); dead-lettered if (it fails|attempts up to 6 fail), not before [\\d:.]+ \\(in [\\d.]+ s\\)$`,
          ),
        );
      }
      expect(deliveries.some((d) => d.rows.some((r) => r.held))).toBe(true);
      // The stats say what their drops are: events sent nowhere, not the circuit's drops above.
      const stats = (await page.locator('#stats').textContent()) ?? '';
      expect(stats).toMatch(/not routed 0 \(no endpoint, not selected, or a group chat\)/);
      expect(stats).not.toMatch(/dropped|attempt\(s\)/);
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it('wraps URLs only after a slash, ? or &, never inside a secret or an id, at 1280 and 390 px; pages long lists; keeps the page short with 60 domains and 60 pixels', async () => {
    const control = controlApi(cli.url, TOKEN);
    await control.send('POST', '/__mock/webhooks', {
      url: `${receiver}/webhooks/linkgate/inbound-events-for-the-demo-tenant?tenant=default&source=mock`,
    });
    await control.send('POST', '/__mock/simulate/message', {
      device_id: 'dev_phone',
      sender: '15551234567',
      text: 'hi',
    });
    const api = (path: string, body: unknown) =>
      fetch(`${cli.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => expect(r.status).toBe(200));
    for (let i = 0; i < 60; i++) {
      await api('/api/domain/add', { domain: `https://brand${i}.layout.example` });
      await api('/api/pixel/add', { type: 'gtmpixel', name: `pixel ${i}`, tag: `GTM-${i}XYZ` });
    }
    for (const width of [1280, 390]) {
      const page = await openPage(width);
      try {
        await page.locator('#domains .pager').waitFor(WAIT);
        await page.locator('.delivery').first().waitFor(WAIT);
        const codes = await lineBreaks(page);
        expect(codes.some((c) => c.text.includes('inbound-events'))).toBe(true);
        for (const { text, after } of codes) {
          if (text.startsWith('http'))
            for (const c of after)
              expect({ text, after: c }).toEqual({ text, after: expect.stringMatching(/^[/?&=]$/) });
          else expect({ text, after }).toEqual({ text, after: [] });
        }
        if (width === 390) {
          // At 390 px the long URL does wrap, so the check above saw real line breaks.
          expect(codes.some((c) => c.after.length > 0)).toBe(true);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
          continue;
        }
        // Long lists: ten rows, the count, and buttons to page; the whole page stays a few screens tall.
        const domains = page.locator('#domains');
        expect(await domains.locator('tbody tr').count()).toBe(10);
        const total = (await domains.locator('.pager').textContent())!;
        expect(total).toMatch(/^1–10 of 6\d Previous ?Next$/);
        const first = await domains.locator('tbody tr').first().textContent();
        await domains.getByRole('button', { name: 'Next' }).click();
        expect(await domains.locator('.pager').textContent()).toMatch(/^11–20 of 6\d/);
        expect(await domains.locator('tbody tr').first().textContent()).not.toBe(first);
        expect(await page.locator('#pixels tbody tr').count()).toBe(10);
        // A new domain arrives as a change while the page is open; the count follows, the page it shows stays.
        await api('/api/domain/add', { domain: 'https://late.layout.example' });
        await page.locator('#domains .pager', { hasText: /^11–20 of 6\d/ }).waitFor(WAIT);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        // It was 5,385 px with every row listed.
        expect(height).toBeLessThan(3_000);
      } finally {
        await page.context().close();
      }
    }
  }, 120_000);
});
