// The `linkgate` CLI built exactly as the package ships it: the CLI entry of tsup.config.ts, into a folder of the
// caller's, so tests and `npm run bench` measure what `npx linkgate` runs (dist/cli.js and dist/cli-chunks/).
import { build, type Options } from 'tsup';
import config from '../../../tsup.config.js';

/** Builds the CLI's entry of tsup.config.ts into `outDir`; resolves with the path of its `cli.js`. */
export async function buildCli(outDir: string): Promise<string> {
  const configs = (Array.isArray(config) ? config : [config]) as Options[];
  const cli = configs.find((c) => typeof c.entry === 'object' && !Array.isArray(c.entry) && 'cli' in c.entry);
  if (!cli) throw new Error('tsup.config.ts has no `cli` entry');
  await build({ ...cli, outDir, clean: true, config: false, silent: true });
  return `${outDir}/cli.js`;
}
