// What a new user does with the inspector, driven through the page alone (clicks and forms), shared by the browser
// test (which asserts on what it returns) and scripts/inspector-screenshots.ts (which photographs each step).
import type { Page } from 'playwright-core';

/** Where the run happens: the `linkgate mock --clock manual` server, its control token, and a receiver process. */
export interface InspectorStack {
  url: string;
  token: string;
  /** The receiver's origin (`http://127.0.0.1:PORT`); it answers 503 until told otherwise. */
  receiver: string;
  /** An ONLINE device the server was started with (`--device`). */
  device: string;
}

/** What the run saw, for the test to judge. */
export interface InspectorRunResult {
  /** The page's address once the token was taken from it. */
  addressAfterOpen: string;
  /** Text of each attempt row of the failing delivery, in order, as the page showed them. */
  attempts: string[];
  /** The circuit's row while open (state and countdown). */
  openCircuit: string;
  /** The countdown read twice a second apart on the manual clock, then after advancing 1 s from the page. */
  countdowns: string[];
  /** The dead letter's row before replay. */
  deadLetter: string;
  /** The replayed delivery's last attempt row. */
  replayed: string;
  /** Each pairing frame the page showed: its attempt, its `<img>` source and the qr_code the page says it encodes. */
  frames: { attempt: number; src: string; qrCode: string }[];
  /** The device.qr bodies the receiver got (independent of the page). */
  receivedFrames: { attempt: number; qr_code: string }[];
}

/** Called after each step with its name, e.g. to take a screenshot. */
export type StepHook = (
  name: 'delivery-failing' | 'circuit-open' | 'dead-letter' | 'replayed' | 'pairing',
) => Promise<void>;

const WAIT = { timeout: 20_000 };

/** Runs the whole scenario on `page`; throws, naming the stage and what the page last said, when it does not show what it should. */
export async function runInspectorScenario(
  page: Page,
  stack: InspectorStack,
  step: StepHook = async () => {},
): Promise<InspectorRunResult> {
  const reached: string[] = ['open'];
  const hook: StepHook = async (name) => {
    reached.push(name);
    await step(name);
  };
  try {
    return await scenario(page, stack, hook);
  } catch (error) {
    const said = await page
      .locator('#action-result')
      .textContent({ timeout: 1_000 })
      .catch(() => '?');
    const clock = await page
      .locator('header')
      .textContent({ timeout: 1_000 })
      .catch(() => '?');
    throw new Error(
      `inspector scenario failed after ${reached.join(' > ')}: ${(error as Error).message}\nlast action: ${said}\nheader: ${clock}`,
    );
  }
}

async function scenario(page: Page, stack: InspectorStack, step: StepHook): Promise<InspectorRunResult> {
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.locator('#status[data-state="live"]').waitFor(WAIT);
  const addressAfterOpen = page.url();
  const click = (name: string) => page.getByRole('button', { name, exact: true }).click();
  const attempt = (n: number, within = page.locator('.delivery').first()) =>
    within.locator(`.attempt[data-attempt="${n}"]`).first();

  // A new user attaches their receiver and simulates an inbound message, from the Actions forms.
  const attach = page.getByRole('form', { name: 'Attach a webhook receiver' });
  await attach.getByLabel('Receiver URL').fill(`${stack.receiver}/hooks`);
  // The form offers a secret to start the receiver with (its WEBHOOK_SECRET); receipts are among the events attached.
  const secret = await attach.getByLabel('Secret').inputValue();
  if (!/^whsec_live_[0-9a-f]{32}$/.test(secret)) throw new Error(`the attach form offers no secret: "${secret}"`);
  await attach.getByRole('button').click();
  await page.locator('#endpoints', { hasText: `${stack.receiver}/hooks` }).waitFor(WAIT);
  await page.locator('#endpoints', { hasText: 'message.ack' }).waitFor(WAIT);
  const inbound = page.getByRole('form', { name: 'Simulate an inbound message' });
  await inbound.getByLabel('Device').selectOption(stack.device);
  await inbound.getByRole('button').click();
  await attempt(1).waitFor(WAIT);
  await page.locator('.delivery .next').first().waitFor(WAIT);
  await step('delivery-failing');

  // Each retry is due on the manual clock; the page moves it to the next due attempt.
  for (let n = 2; n <= 5; n++) {
    await click('Advance to the next due attempt');
    await attempt(n).waitFor(WAIT);
  }
  const circuit = page.locator('tr', { has: page.locator('.circuit[data-state="open"]') });
  await circuit.waitFor(WAIT);
  const openCircuit = (await circuit.textContent()) ?? '';
  const countdown = circuit.locator('.countdown');
  const countdowns = [(await countdown.textContent()) ?? ''];
  await page.waitForTimeout(1_000);
  countdowns.push((await countdown.textContent()) ?? '');
  // From the keyboard: the buttons are real buttons with labels.
  await page.getByRole('button', { name: 'Advance 1 s', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#action-result', { hasText: '/__mock/clock/advance → 200' }).waitFor(WAIT);
  await page.waitForFunction(
    (before) => {
      const shown = document.querySelector('#circuits .countdown')?.textContent;
      return shown != null && shown !== before;
    },
    countdowns[1],
    WAIT,
  );
  countdowns.push((await countdown.textContent()) ?? '');
  await step('circuit-open');

  // The sixth attempt goes when the circuit half-opens: the probe. It fails, so the event is dead-lettered.
  await click('Advance to the next due attempt');
  await attempt(6).waitFor(WAIT);
  const deadRow = page.locator('#dead-letters tr', { has: page.getByRole('button', { name: 'Replay', exact: true }) });
  await deadRow.waitFor(WAIT);
  const deadLetter = (await deadRow.textContent()) ?? '';
  const attempts = await page.locator('.delivery').first().locator('.attempt').allTextContents();
  await step('dead-letter');

  // The receiver is fixed; replay from the queue, then let the circuit's probe through.
  await fetch(`${stack.receiver}/__answer`, { method: 'POST', body: JSON.stringify({ status: 200 }) });
  await deadRow.getByRole('button', { name: 'Replay', exact: true }).click();
  await page
    .locator('#dead-letters tr', { has: page.getByRole('button', { name: 'Replay', exact: true }) })
    .waitFor({ state: 'detached', ...WAIT });
  await click('Advance to the next due attempt');
  const delivered = page.locator('.delivery').first().locator('.attempt[data-outcome="delivered"]');
  await delivered.waitFor(WAIT);
  await page.locator('.circuit[data-state="closed"]').waitFor(WAIT);
  const replayed = (await delivered.textContent()) ?? '';
  await step('replayed');

  // Pairing: a device added from the page, its frames sent to a receiver of their own, started from the page.
  const known = await page.locator('.device').count();
  await page.getByRole('form', { name: 'Add a device' }).getByRole('button').click();
  const device = page.locator('.device').nth(known);
  await device.waitFor(WAIT);
  const deviceId = (await device.getAttribute('data-device-id'))!;
  await fetch(`${stack.url}/__mock/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ device_id: deviceId, url: `${stack.receiver}/pairing`, events: ['device.qr'] }),
  });
  await device.getByRole('button', { name: 'Start pairing' }).click();
  const frames: InspectorRunResult['frames'] = [];
  const frame = async (n: number) => {
    const img = device.locator(`img.qr-frame[data-attempt="${n}"]`);
    await img.waitFor(WAIT);
    frames.push({
      attempt: n,
      src: (await img.getAttribute('src'))!,
      qrCode: (await img.getAttribute('data-qr-code'))!,
    });
  };
  await frame(1);
  await step('pairing');
  await click('Advance 30 s');
  await frame(2);
  // The page shows a frame when the gateway sends it; its delivery to the receiver may land a moment later.
  let receivedFrames: InspectorRunResult['receivedFrames'] = [];
  for (const deadline = Date.now() + WAIT.timeout; receivedFrames.length < frames.length && Date.now() < deadline; ) {
    const received = (await (await fetch(`${stack.receiver}/__received`)).json()) as {
      body: { event: string; data: { attempt: number; qr_code: string } };
    }[];
    receivedFrames = received
      .filter((r) => r.body.event === 'device.qr')
      .map((r) => ({ attempt: r.body.data.attempt, qr_code: r.body.data.qr_code }));
    if (receivedFrames.length < frames.length) await page.waitForTimeout(100);
  }
  return { addressAfterOpen, attempts, openCircuit, countdowns, deadLetter, replayed, frames, receivedFrames };
}
