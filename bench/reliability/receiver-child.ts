// Starts receiver-process.ts as its own node process and reads its memory the way the issue measured it: resident
// set size from /proc, the baseline once it listens and the high-water mark (VmHWM) after the attack.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A receiver running in its own process. */
export interface ReceiverProcess {
  /** Where deliveries go. */
  url: string;
  /** Peak resident memory since it started listening, minus its resident memory then, in MB. */
  peakRssGrowthMb(): number;
  /** What the receiver measured (see receiver-process.ts). */
  stats(): Promise<{ refusedAfter: number[]; handled: number }>;
  stop(): Promise<void>;
}

/** Starts a receiver with `secret` and a body time bound, and resolves once it listens. */
export async function startReceiverProcess(secret: string, bodyTimeoutMs: number): Promise<ReceiverProcess> {
  const script = fileURLToPath(new URL('./receiver-process.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, secret, String(bodyTimeoutMs)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the receiver process exited with ${code} before listening: ${out}`)));
  });
  // One request warms the handler up, so the baseline includes what every receiver holds once running.
  await fetch(url, { method: 'POST', body: '{}' }).then((r) => r.text());
  const baseline = procStatusMb(child.pid, 'VmRSS');
  const stats = new URL('/stats', url).toString();
  return {
    url,
    peakRssGrowthMb: () => procStatusMb(child.pid, 'VmHWM') - baseline,
    stats: async () => (await fetch(stats)).json() as Promise<{ refusedAfter: number[]; handled: number }>,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A `Vm…` line of /proc/<pid>/status in MB (NaN where there is no /proc). */
function procStatusMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}
