// `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, so they don't share a CPU.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(${file} exited with ${r.status ?? r.signal})`);
  }
}
console.log(`\n${files.length} benchmarks run, ${failed} failed to run`);
process.exit(failed ? 1 : 0);
