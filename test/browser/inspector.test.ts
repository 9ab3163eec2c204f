import { decodeQrImage } from 'linkgate/webhooks';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRING_QR_OPTIONS } from '../../mock/simulators/pairing-simulator.js';
import { type CliServer, type NodeProcess, spawnNode, startCli } from '../e2e/support/processes.js';
import { decodePalettePng, drawnModules, expectedModules } from '../mock/support/png.js';
import { runInspectorScenario } from './inspector-scenario.js';
import { chromiumAvailable, launchChromium } from './support/chromium.js';

const hasChromium = chromiumAvailable('test/browser/inspector', 'the inspector page');

const TOKEN = 'ctl_inspector_browser_0123456789';

describe.skipIf(!hasChromium)('the inspector page of linkgate mock, in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The CLI server on a manual clock and a receiver process that fails until told otherwise. */
  async function startStack(): Promise<{ cli: CliServer; rx: NodeProcess; receiver: string }> {
    const cli = await startCli(['--clock', 'manual', '--control-token', TOKEN, '--device', 'dev_phone']);
    const rx = spawnNode(['test/browser/inspector-receiver.mjs']);
    const [, receiver] = await rx.printed(/receiver listening on (http:\/\/127\.0\.0\.1:\d+)/);
    return { cli, rx, receiver: receiver! };
  }

  it('shows a delivery fail and retry live, the circuit open with a countdown, the probe, a replay delivered, and a pairing QR that decodes to its qr_code', async () => {
    const { cli, rx, receiver } = await startStack();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      const [, link] = await cli.printed(/Inspector[^:]*: (\S+)/);
      expect(link).toBe(`${cli.url}/#token=${TOKEN}`);
      const run = await runInspectorScenario(page, { url: cli.url, token: TOKEN, receiver, device: 'dev_phone' });

      // The token left the address bar once read.
      expect(run.addressAfterOpen).toBe(`${cli.url}/`);
      // Six attempts, each failed with the receiver's 503; the sixth was the circuit's probe.
      expect(run.attempts).toHaveLength(6);
      for (const text of run.attempts) expect(text).toMatch(/: 503 /);
      expect(run.attempts[5]).toMatch(/^attempt 6 of 6 \(probe\)/);
      expect(run.attempts[4]).toMatch(/^attempt 5 of 6 at /);
      // Open for 30 s on the manual clock: the countdown stands still in real time and moves when the page advances it.
      expect(run.openCircuit).toMatch(/open closes to a probe in 30 s, 5 failed in a row/);
      expect(run.countdowns).toEqual(['in 30 s', 'in 30 s', 'in 29 s']);
      expect(run.deadLetter).toMatch(/message\.received.*exhausted\s*6\s*503/);
      expect(run.replayed).toMatch(/: 200 delivered/);

      // Each frame the page showed draws exactly the modules of the qr_code the receiver got for that attempt.
      expect(run.frames.map((f) => f.attempt)).toEqual([1, 2]);
      expect(run.receivedFrames.map((f) => f.attempt)).toEqual([1, 2]);
      for (const shown of run.frames) {
        const sent = run.receivedFrames.find((f) => f.attempt === shown.attempt)!;
        expect(shown.qrCode).toBe(sent.qr_code);
        const image = await decodePalettePng(decodeQrImage(shown.src));
        const expected = expectedModules(sent.qr_code, PAIRING_QR_OPTIONS.errorCorrectionLevel);
        expect(drawnModules(image, expected.length, PAIRING_QR_OPTIONS.scale)).toEqual(expected);
      }
      expect(run.frames[0]!.qrCode).not.toBe(run.frames[1]!.qrCode);

      // Readable on a narrow window: nothing wider than the viewport.
      await page.setViewportSize({ width: 400, height: 800 });
      const widest = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(widest).toBeLessThanOrEqual(400);
      expect(errors).toEqual([]);

      // The request log shows the page's requests, but never the token (the banner alone prints it).
      const log = cli.out().slice(cli.out().indexOf('Stop with Ctrl+C.'));
      expect(log).toMatch(/POST \/__mock\/dead-letters\/\S+\/replay 200 control token/);
      expect(log).not.toContain(TOKEN);
    } finally {
      await context.close();
      rx.child.kill('SIGTERM');
      expect(await cli.stop()).toBe(0);
    }
  }, 120_000);

  it("advances a sent message's receipts on an open page as they arrive: sent, then delivered, then read", async () => {
    const key = `gw_live_${'b2'.repeat(12)}`;
    const cli = await startCli([
      '--clock',
      'manual',
      '--control-token',
      TOKEN,
      '--device',
      'dev_out',
      '--messaging-key',
      key,
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${cli.url}/#token=${TOKEN}`);
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 20_000 });
      const sent = await fetch(`${cli.url}/api/v1/wa/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: 'dev_out', phone: '15557654321', message: 'hello there' }),
      }).then((r) => r.json() as Promise<{ data: { message_id: string } }>);
      const row = page.locator('#messages tr', { hasText: sent.data.message_id });
      const receipts = () => row.locator('td').last();
      // The simulated phone answers a second apart: sent, delivered, read. The page is never reloaded.
      const shown: string[] = [];
      for (const expected of [
        /^sent [\d:.]+$/,
        /^sent [\d:.]+ → delivered [\d:.]+$/,
        /^sent .* → delivered .* → read [\d:.]+$/,
      ]) {
        await page.getByRole('button', { name: 'Advance 1 s', exact: true }).click();
        await expect
          .poll(async () => (await receipts().textContent({ timeout: 20_000 }))?.trim(), { timeout: 20_000 })
          .toMatch(expected);
        shown.push((await receipts().textContent())!.trim());
      }
      expect(shown).toHaveLength(3);
    } finally {
      await context.close();
      expect(await cli.stop()).toBe(0);
    }
  }, 60_000);

  it('shows nothing but how to get the token when the address has none, or a wrong one', async () => {
    const { cli, rx } = await startStack();
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      for (const address of [`${cli.url}/`, `${cli.url}/#token=ctl_not_the_token`]) {
        await page.goto(address);
        const locked = page.locator('#locked');
        await locked.waitFor({ state: 'visible', timeout: 20_000 });
        expect(await locked.textContent()).toMatch(/control token.*#token=/s);
        expect(await page.locator('#app').isVisible()).toBe(false);
        expect(await page.locator('body').textContent()).not.toMatch(/dev_phone|alice|admin@/);
      }
    } finally {
      await context.close();
      rx.child.kill('SIGTERM');
      expect(await cli.stop()).toBe(0);
    }
  });
});
