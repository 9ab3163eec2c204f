// `npm run size`: fails when a shipped app bundle (esbuild browser build, minified, gzip -9) grows past its budget, and
// prints each app's figures beside their floors (bundled in the same run): what linkgate adds to a host app already on
// ky + zod/mini, and the app standalone. The budgets, the apps they measure and their floors live in
// bench/support/size-budgets.ts. Run by .ci/run.

import { gzipSync } from 'node:zlib';
import { removeWorkDir } from '../bench/support/app-bundle.js';
import { buildShippedEntries } from '../bench/support/package-build.js';
import { inspectorPageBudget, judgeSize, sizeBudgets } from '../bench/support/size-budgets.js';
import { measureBudget } from '../bench/support/size-figures.js';
import { inspectorPage } from '../mock/inspector/inspector-page.js';

try {
  // Apps are measured against the entries as published, built once here with the package's tsup configuration.
  const shipped = await buildShippedEntries();
  for (const budget of sizeBudgets) {
    for (const { ok, line } of await measureBudget(budget, shipped)) {
      console.log(`size: ${line}`);
      if (!ok) process.exitCode = 1;
    }
  }
  // The page is served as it is built, not bundled into an app: its own bytes, gzip -9.
  const page = judgeSize({
    what: inspectorPageBudget.name,
    kb: gzipSync(inspectorPage(), { level: 9 }).length / 1024,
    limit: inspectorPageBudget,
  });
  console.log(`size: ${page.line}`);
  if (!page.ok) process.exitCode = 1;
} finally {
  removeWorkDir();
}
