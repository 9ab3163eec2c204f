// linkgate built exactly as the package ships it, from tsup.config.ts, into a folder of the caller's: tests and
// `npm run bench` measure what `npx linkgate` and an installed app run, not a build of their own making.
import { build, type Options } from 'tsup';
import config from '../../../tsup.config.js';

/** Builds the configuration of tsup.config.ts that has `entry` into `outDir`, with `overrides` (e.g. one format). */
export async function buildAsPublished(entry: string, outDir: string, overrides: Options = {}): Promise<void> {
  const configs = (Array.isArray(config) ? config : [config]) as Options[];
  const found = configs.find((c) => typeof c.entry === 'object' && !Array.isArray(c.entry) && entry in c.entry);
  if (!found) throw new Error(`tsup.config.ts has no \`${entry}\` entry`);
  await build({ ...found, outDir, clean: true, config: false, silent: true, ...overrides });
}

/** Builds the CLI (dist/cli.js and dist/cli-chunks/) into `outDir`; resolves with the path of its `cli.js`. */
export async function buildCli(outDir: string): Promise<string> {
  await buildAsPublished('cli', outDir);
  return `${outDir}/cli.js`;
}
