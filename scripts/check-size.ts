// `npm run size`: fails when a shipped app bundle (esbuild browser build, minified, gzip -9) grows past its budget, and
// prints each figure beside its floor (bundled in the same run) and its target. The budgets, the apps they measure and
// their floors live in bench/support/size-budgets.ts. Run by .ci/run.

import { gzipSync } from 'node:zlib';
import { gzipped, removeWorkDir } from '../bench/support/app-bundle.js';
import { buildShippedEntries } from '../bench/support/package-build.js';
import { inspectorPageBudget, judgeSize, sizeBudgets } from '../bench/support/size-budgets.js';
import { inspectorPage } from '../mock/inspector/inspector-page.js';

try {
  // SDK apps are measured against the entry as published, built once here with the package's tsup configuration.
  const shipped = sizeBudgets.some((b) => b.shipped) ? await buildShippedEntries() : undefined;
  // Two apps may share a floor: each floor is bundled once.
  const floors = new Map<string, number>();
  for (const [i, budget] of sizeBudgets.entries()) {
    const { gz } = await gzipped(budget.source, `budget-${i}`, {}, budget.shipped ? shipped : undefined);
    let floor: number | undefined;
    if (budget.floor) {
      floor = floors.get(budget.floor.source) ?? (await gzipped(budget.floor.source, `floor-${i}`)).gz / 1024;
      floors.set(budget.floor.source, floor);
    }
    const { ok, line } = judgeSize(gz / 1024, budget, floor);
    console.log(`size: ${line}`);
    if (!ok) process.exitCode = 1;
  }
  // The page is served as it is built, not bundled into an app: its own bytes, gzip -9.
  const page = judgeSize(gzipSync(inspectorPage(), { level: 9 }).length / 1024, { ...inspectorPageBudget, source: '' });
  console.log(`size: ${page.line}`);
  if (!page.ok) process.exitCode = 1;
} finally {
  removeWorkDir();
}
