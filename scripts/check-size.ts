// `npm run size`: fails when a shipped app bundle (esbuild browser build, minified, gzip -9) grows past its budget.
// The budgets and the apps they measure live in bench/support/size-budgets.ts. Run by .ci/run.

import { gzipSync } from 'node:zlib';
import { gzipped, removeWorkDir } from '../bench/support/app-bundle.js';
import { inspectorPageBudget, judgeSize, sizeBudgets } from '../bench/support/size-budgets.js';
import { inspectorPage } from '../mock/inspector/inspector-page.js';

try {
  for (const [i, budget] of sizeBudgets.entries()) {
    const { gz } = await gzipped(budget.source, `budget-${i}`);
    const floor = budget.floor ? (await gzipped(budget.floor.source, `floor-${i}`)).gz / 1024 : undefined;
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
