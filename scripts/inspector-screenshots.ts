// `npm run screenshots:inspector`: runs the browser test's inspector scenario (test/browser/inspector-scenario.ts)
// against `linkgate mock --clock manual` and a failing receiver, and writes what the page shows at each step to
// docs/images/inspector-*.png, so the pictures in the README and the gateway guide never drift from the page.
// Needs Chromium at /usr/bin/chromium (or CHROMIUM=path). Loopback only; every process it starts is stopped.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { runInspectorScenario, type StepHook } from '../test/browser/inspector-scenario.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = `${root}docs/images`;
const TOKEN = 'ctl_screenshot_token_0000000000';
const children: ChildProcess[] = [];

/** Starts `node --import tsx <args>` and resolves with the first match of `pattern` on its stdout. */
function start(args: string[], pattern: RegExp): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      text += d;
      const match = pattern.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before printing ${pattern}`)));
  });
}

try {
  mkdirSync(out, { recursive: true });
  const url = await start(
    [
      'mock/cli.ts',
      'mock',
      '--port',
      '0',
      '--clock',
      'manual',
      '--control-token',
      TOKEN,
      '--device',
      'dev_phone',
      '--quiet',
    ],
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const receiver = await start(['test/browser/inspector-receiver.mjs'], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const shoot = async (name: string, selector?: string) => {
      // Let the last update render and the countdowns tick once.
      await page.waitForTimeout(400);
      const path = `${out}/inspector-${name}.png`;
      if (selector) await page.locator(selector).screenshot({ path });
      else await page.screenshot({ path });
      console.log(`wrote ${path.slice(root.length)}`);
    };
    const step: StepHook = async (name) => {
      if (name === 'circuit-open') await shoot('circuit-open');
      if (name === 'dead-letter') await shoot('dead-letter');
      if (name === 'pairing') await shoot('pairing', 'section[aria-labelledby="h-devices"]');
    };
    await runInspectorScenario(page, { url, token: TOKEN, receiver, device: 'dev_phone' }, step);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot('narrow');
  } finally {
    await browser.close();
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
}
