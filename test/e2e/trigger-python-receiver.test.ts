// The "done when": a receiver author in Python tests their endpoint with one `linkgate trigger` line. The
// Python example runs as its own process; the CLI in another, as the guide shows.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, root, runCli } from './support/processes.js';

const SECRET = 'whsec_live_00aa11bb22cc33dd44ee55ff66778899';
const python = spawnSync('python3', ['--version']).status === 0;
if (!python) console.warn('SKIPPED: python3 is not installed, so the Python receiver example cannot be run.');

describe.skipIf(!python)(
  'linkgate trigger against the Python receiver example (examples/webhook-receiver-python.py)',
  () => {
    let child: ChildProcess;
    let url: string;
    let out = '';
    beforeAll(async () => {
      child = spawn('python3', ['examples/webhook-receiver-python.py'], {
        cwd: root,
        env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d) => {
        out += d;
      });
      child.stderr?.on('data', (d) => {
        out += d;
      });
      url = await new Promise<string>((resolve, reject) => {
        child.stdout?.on('data', () => {
          const match = /listening for webhooks on (\S+)/.exec(out);
          if (match) resolve(match[1] as string);
        });
        child.on('exit', () => reject(new Error(`the Python receiver exited:\n${out}`)));
      });
    });
    afterAll(() => {
      if (child?.exitCode === null) child.kill('SIGKILL');
    });

    it('is tested with one line: the delivery is handled and acknowledged', async () => {
      const run = await runCli(['trigger', 'message.received', '--to', url, '--secret', SECRET], { timeoutMs: 90_000 });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout).toMatch(/answer {3}200 in \d+ ms: \{"status": "success"\}/);
      await expect
        .poll(() => out, { timeout: 15_000 })
        .toMatch(
          /handled message\.received from device-1: \{"message_id": "3EB0[0-9A-F]{16}", "sender": "6281234567890"/,
        );
      expect(run.stdout + run.stderr).not.toContain(SECRET);
    });

    it('passes every check a receiver must pass: one of every event, a repeat, a wrong secret, a stale and an invalid delivery', async () => {
      const runs = [
        ['--all'],
        ['message.ack', '--duplicate'],
        ['message.ack', '--wrong-secret'],
        ['message.ack', '--stale'],
        ['message.ack', '--set', 'data.status_code=7', '--allow-invalid'],
      ];
      for (const args of runs) {
        const run = await runCli(['trigger', ...args, '--to', url, '--secret', SECRET, '--json'], {
          timeoutMs: 90_000,
        });
        expect(run.code, `${args.join(' ')}: ${describeRun(run)}`).toBe(0);
        expect(JSON.parse(run.stdout).ok).toBe(true);
      }
      expect(out.match(/handled message\.ack /g)?.length, 'the --all ack and one of the two copies').toBe(2);
    });
  },
);
