// `npm run size`: fails when a shipped app bundle (esbuild browser build, minified, gzip -9) grows past its budget.
// The budgets and the apps they measure live in bench/support/size-budgets.ts. Run by .ci/run.
import { gzipped, removeWorkDir } from '../bench/support/app-bundle.js';
import { judgeSize, sizeBudgets } from '../bench/support/size-budgets.js';

try {
  for (const [i, budget] of sizeBudgets.entries()) {
    const { gz } = await gzipped(budget.source, `budget-${i}`);
    const { ok, line } = judgeSize(gz / 1024, budget);
    console.log(`size: ${line}`);
    if (!ok) process.exitCode = 1;
  }
} finally {
  removeWorkDir();
}
