// The gateway guide's snippets (docs/guides/gateway-simulator.md) as users run them: the set-up and one scenario
// pasted into a program of its own, run by `node`, which must print what the guide says and exit by itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, root, runProgram } from '../../e2e/support/processes.js';

const guide = readFileSync(join(root, 'docs/guides/gateway-simulator.md'), 'utf8');
const snippets = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const [setUp, retries, circuit, deadLetters] = snippets;

/** Runs the set-up, a scenario, and a last line printing what the test checks. */
async function runScenario(scenario: string | undefined, print: string) {
  const result = await runProgram(
    { source: `${setUp}\n${scenario}\nconsole.log(JSON.stringify(${print}));\n` },
    {
      timeoutMs: 90_000,
    },
  );
  expect(result.code, describeRun(result)).toBe(0);
  // The scenarios move a manual clock through minutes in less real time, starting node and tsx under load included.
  expect(result.ms, describeRun(result)).toBeLessThan(50_000);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
}

describe('docs/guides/gateway-simulator.md snippets, each in its own node process', () => {
  it('has the four in-process scenarios the test reads', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(4);
    expect(setUp).toContain("gateway.routing.setTenant('default', { url: 'https://receiver.test/webhooks', secret });");
    expect(retries).toContain('clock.advance(3_000)');
    expect(circuit).toContain("gateway.circuits()[0]?.state; // 'closed'");
    expect(deadLetters).toContain('gateway.replay(dead!.deliveryId)');
  });

  it('retries: failed, failed, then delivered once the receiver recovers', async () => {
    expect(await runScenario(retries, 'gateway.attempts().map((a) => a.outcome)')).toEqual([
      'failed',
      'failed',
      'delivered',
    ]);
  });

  it('the circuit: open after five failures, closed by the probe 30 s later', async () => {
    expect(await runScenario(circuit, 'gateway.circuits()[0]?.state')).toBe('closed');
  });

  it('the dead-letter queue: six failed attempts, then the replay is delivered with the same delivery id', async () => {
    const print = '[dead.attempts, gateway.attempts().at(-1), gateway.deadLetters.list().length]';
    const [attempts, last, queued] = await runScenario(deadLetters, print);
    expect(attempts).toBe(6);
    expect(last).toMatchObject({ outcome: 'delivered', probe: true });
    expect(queued).toBe(0);
  });
});
