// `npm run docs`: writes docs/openapi.json and docs/retry-timeline.svg from the code, then builds the API reference
// (typedoc, warnings are errors) into docs/api/. Run: node --import tsx scripts/docs.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../mock/openapi/openapi-document.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The OpenAPI document as committed: stable key order, two-space indent, trailing newline. */
export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

async function main(): Promise<number> {
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs', 'openapi.json'), openApiFileText());
  console.log('docs: wrote docs/openapi.json');

  const { writeRetryTimeline } = await import('./retry-timeline.js');
  const svg = await writeRetryTimeline(join(root, 'docs', 'retry-timeline.svg'));
  console.log(`docs: wrote docs/retry-timeline.svg (${svg.attempts} attempts drawn)`);

  const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const result = spawnSync(process.execPath, [typedoc], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      'docs: typedoc failed (warnings count as errors); fix the TSDoc it names and run `npm run docs` again.',
    );
    return result.status ?? 1;
  }
  console.log('docs: wrote docs/api/');
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main();
}
