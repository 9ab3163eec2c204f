// `npm run size`: fails when the SDK's browser bundle (an app that imports Linkgate and calls every resource, esbuild
// browser build, minified, gzip -9) grows past its budget. Run by .ci/run.
import { appSource, gzipped, removeWorkDir } from '../bench/support/app-bundle.js';

/**
 * The enforced budget. The SDK issue's target is 20 KB; the measured floor of ky + zod/mini + the shared schemas is
 * 16.7 KB, and the client measures 24.0 KB (docs/benchmarks.md), so this budget guards against regressions until
 * the 20 KB target is met or revised.
 */
const BUDGET_KB = 24.5;
const TARGET_KB = 20;

try {
  const { gz } = await gzipped(appSource, 'app');
  const kb = gz / 1024;
  const verdict = kb <= BUDGET_KB ? 'within budget' : 'OVER BUDGET';
  console.log(
    `size: linkgate app bundle ${kb.toFixed(1)} KB gzip; budget ${BUDGET_KB} KB: ${verdict}; target ${TARGET_KB} KB: ${kb <= TARGET_KB ? 'met' : 'missed'}`,
  );
  if (kb > BUDGET_KB) process.exitCode = 1;
} finally {
  removeWorkDir();
}
