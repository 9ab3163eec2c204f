// `linkgate mock --state <file>` and `--fixture <file>`: the state a server starts from, and the file that keeps it.
// The file is written whole beside the old one and renamed over it (after fsync), so a crash or `kill -9` at any
// moment leaves the previous or the new state, never a torn one; a lock file beside it keeps a second server off.
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BackendCore } from '../backend.js';
import { FIXTURE_VARIANTS_KEY, fixtureVariants, loadFixture } from '../control/fixture.js';
import type { ProductionVariantName } from '../management/variants.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { jsonErrorOffset } from './json-error-offset.js';

/** At most one write of the state file per this many ms; a change is on disk within about this long. */
export const STATE_WRITE_INTERVAL_MS = 1_000;

/** The largest state file a server starts from: 64 MB, some 400,000 rows; a bigger one is refused with its size. */
export const MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;

/** A state file or fixture the server cannot start from: printed as it is, exit code 1. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/** What `--state` and `--fixture` asked for. */
export interface StartState {
  /** The state file to load (created when missing) and keep current. */
  state?: string | undefined;
  /** A fixture (the `POST /__mock/fixture` format) to load at start. */
  fixture?: string | undefined;
}

/** A state file being kept current. */
export interface StateFileKeeper {
  /** Lines for the banner: what was loaded or created. */
  readonly notes: string[];
  /** Writes the state now if it changed, waits for the write in progress, releases the lock. Synchronous, for exit. */
  close(): void;
}

/**
 * Loads `--fixture` and `--state` into `backend` before it serves (a state file that exists wins over the fixture,
 * which was loaded into it when it was created), then keeps the file current. Throws a {@link StateFileError} that
 * says what is wrong and what to do; the files are then left as they were.
 */
export async function applyStartState(backend: BackendCore, start: StartState): Promise<StateFileKeeper | undefined> {
  const notes: string[] = [];
  if (start.state === undefined) {
    if (start.fixture !== undefined) notes.push(await applyFixture(backend, start.fixture));
    return start.fixture === undefined ? undefined : { notes, close() {} };
  }
  const path = start.state;
  const lock = takeLock(path);
  try {
    removeLeftoverTemps(path);
    const text = readStateText(path);
    if (text === undefined) {
      if (start.fixture !== undefined) notes.push(await applyFixture(backend, start.fixture));
      writeAtomicSync(path, stateTextFor(path, backend));
      notes.push(`State file: ${path} created; changes are written to it at most once a second.`);
    } else {
      restoreFrom(backend, path, text);
      if (start.fixture !== undefined)
        notes.push(`Fixture: ${start.fixture} not loaded: ${path} already holds the state.`);
      notes.push(`State file: ${path} loaded; changes are written to it at most once a second.`);
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  return keepCurrent(backend, path, lock, notes);
}

/**
 * The production variants a `--fixture` recording names in its `variants` key (none without one), read before the
 * server is made so it starts with them; throws a {@link StateFileError} for a bad file or a bad entry.
 *
 * @example
 * createBackendCore({ variants: [...flags.variants, ...readFixtureVariants('recording.json')] });
 */
export function readFixtureVariants(path: string): ProductionVariantName[] {
  const fixture = readFixtureObject(path);
  if (!Object.hasOwn(fixture, FIXTURE_VARIANTS_KEY)) return [];
  try {
    return fixtureVariants(fixture[FIXTURE_VARIANTS_KEY]);
  } catch (error) {
    if (!(error instanceof GatewayInputError)) throw error;
    throw new StateFileError(`The fixture ${path} was not loaded: ${error.field} ${error.rule}.`);
  }
}

function readFixtureObject(path: string): Record<string, unknown> {
  const text = readOrExplain(path, 'fixture');
  const fixture = parseJson(text, path, 'fixture');
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) {
    throw new StateFileError(`The fixture ${path} must hold a JSON object such as {"users": [...], "domains": [...]}.`);
  }
  return fixture as Record<string, unknown>;
}

async function applyFixture(backend: BackendCore, path: string): Promise<string> {
  // Its variants were read before the server was made (readFixtureVariants), merged with --variant.
  const { [FIXTURE_VARIANTS_KEY]: _variants, ...fixture } = readFixtureObject(path);
  try {
    const loaded = await loadFixture(backend, fixture);
    const counts = Object.entries(loaded)
      .map(([table, rows]) => `${(rows as unknown[]).length} ${table}`)
      .join(', ');
    return `Fixture: ${path} loaded (${counts}).`;
  } catch (error) {
    if (!(error instanceof GatewayInputError)) throw error;
    throw new StateFileError(`The fixture ${path} was not loaded: ${error.field} ${error.rule}.`);
  }
}

/** The file's text, or undefined when there is none yet; refuses one over the size limit before reading it. */
function readStateText(path: string): string | undefined {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`Could not read the state file ${path}: ${(error as Error).message}`);
  }
  if (size > MAX_STATE_FILE_BYTES) {
    throw new StateFileError(
      `The state file ${path} is ${megabytes(size)} (${size} bytes), over the ${megabytes(MAX_STATE_FILE_BYTES)} a state file may be; it was left as it is. Start with another --state file, or trim this one.`,
    );
  }
  return readOrExplain(path, 'state file');
}

function restoreFrom(backend: BackendCore, path: string, text: string): void {
  const value = parseJson(text, path, 'state file');
  try {
    backend.restore(value);
  } catch (error) {
    if (!(error instanceof GatewayInputError)) throw error;
    throw new StateFileError(
      `The state file ${path} cannot be loaded: ${error.field} ${error.rule}. It was left as it is; fix it, move it aside to start from the seed, or pass another --state file.`,
    );
  }
}

function readOrExplain(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new StateFileError(`Could not read the ${what} ${path}: ${(error as Error).message}`);
  }
}

/** JSON.parse, or a StateFileError with the line, column and reason of the first mistake. */
function parseJson(text: string, path: string, what: string): unknown {
  try {
    if (text.trim() === '') throw new SyntaxError('the file is empty');
    return JSON.parse(text);
  } catch (error) {
    const at = jsonErrorOffset(text) ?? text.length;
    const before = text.slice(0, at).split('\n');
    const line = before.length;
    const column = (before.at(-1)?.length ?? 0) + 1;
    // V8's reason without the offset or the quoted snippet it adds: the line and column say where.
    const why = (error as Error).message.split(/,? in JSON at position|\s\(line \d|, "|, \.\.\."/)[0];
    throw new StateFileError(
      `The ${what} ${path} is not valid JSON: line ${line}, column ${column}: ${why}. It was left as it is; fix it${
        what === 'state file' ? ', move it aside to start from the seed, or pass another --state file' : ''
      }.`,
    );
  }
}

/** The lock beside a state file: `<file>.lock` holding the owner's pid. */
interface StateLock {
  release(): void;
}

/** Takes `<path>.lock`, or throws naming the live process holding it; a lock of a process that is gone is taken over. */
function takeLock(path: string): StateLock {
  const lockPath = `${path}.lock`;
  const owner = JSON.stringify({ pid: process.pid, since: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, owner, { flag: 'wx' });
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      // A crash or process.exit() elsewhere still frees the file for the next server.
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StateFileError(`Could not create the lock file ${lockPath}: ${(error as Error).message}`);
      }
    }
    const other = readLock(lockPath);
    if (other && isAlive(other.pid)) {
      throw new StateFileError(
        `The state file ${path} is in use by another linkgate mock (process ${other.pid}, since ${other.since}); stop that server first, or pass another --state file (if no linkgate runs as process ${other.pid}, delete ${lockPath}).`,
      );
    }
    // Its owner is gone (killed, or the machine restarted): the lock is stale.
    try {
      unlinkSync(lockPath);
    } catch {
      // Another server starting at the same moment took it over first; the next attempt sees its lock.
    }
  }
  throw new StateFileError(
    `The state file ${path} was locked by another server starting at the same moment; try again.`,
  );
}

function readLock(lockPath: string): { pid: number; since: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid?: unknown; since?: unknown };
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid as number) <= 0) return undefined;
    return { pid: parsed.pid as number, since: String(parsed.since) };
  } catch {
    // Unreadable or half written: a starting server writes it in one call, so treat it as stale.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temp files of writes a killed server never finished: ours now that we hold the lock. */
function removeLeftoverTemps(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix) || !/\.\d+(\.async)?\.tmp$/.test(name)) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // Gone already.
    }
  }
}

/**
 * The state as the file holds it: indented, so a diff or a parse error points at one row. Throws when it is over
 * `maxBytes`: a file the next start would refuse is not written, so the file keeps the last state it can start from.
 */
export function serialise(backend: { snapshot(): unknown }, maxBytes = MAX_STATE_FILE_BYTES): string {
  const text = `${JSON.stringify(backend.snapshot(), null, 1)}\n`;
  // A UTF-16 unit is at most 3 bytes of UTF-8: only a text that long can be over, so only then is it measured.
  const size = text.length * 3 > maxBytes ? Buffer.byteLength(text) : 0;
  if (size > maxBytes) {
    throw new StateFileError(
      `the state is ${megabytes(size)} (${size} bytes), over the ${megabytes(maxBytes)} a state file may be, so a restart could not load it; the file keeps the last state written. Delete rows or reset the mock (POST /__mock/reset).`,
    );
  }
  return text;
}

/** {@link serialise} at start, where a refusal stops the server: the message names the file. */
function stateTextFor(path: string, backend: BackendCore): string {
  try {
    return serialise(backend);
  } catch (error) {
    throw new StateFileError(`The state file ${path} was not created: ${(error as Error).message}`);
  }
}

/** Writes and fsyncs `<path>.<pid>.tmp`, renames it over `path`, and fsyncs the folder so the rename lasts. */
function writeAtomicSync(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  syncFolder(path);
}

function syncFolder(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename is still atomic.
  }
}

/** Every interval, writes the state when it changed since the last write; the last write happens at close. */
function keepCurrent(backend: BackendCore, path: string, lock: StateLock, notes: string[]): StateFileKeeper {
  let written = backend.changes;
  let writing: string | undefined;
  let warned = false;
  const temp = `${path}.${process.pid}.async.tmp`;
  const writeAsync = async () => {
    const changes = backend.changes;
    const text = serialise(backend);
    writing = temp;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    syncFolder(path);
    written = changes;
  };
  const timer = setInterval(() => {
    if (writing !== undefined || backend.changes === written) return;
    writeAsync().then(
      () => {
        writing = undefined;
        warned = false;
      },
      (error: Error) => {
        writing = undefined;
        void unlink(temp).catch(() => {});
        // Said once until a write succeeds again: a full disk must not flood the log.
        if (!warned) process.stderr.write(`linkgate: could not write the state file ${path}: ${error.message}\n`);
        warned = true;
      },
    );
  }, STATE_WRITE_INTERVAL_MS);
  timer.unref();
  return {
    notes,
    close() {
      clearInterval(timer);
      try {
        // A write in progress is overtaken: its rename never comes, as the process exits after this.
        if (writing !== undefined) {
          try {
            unlinkSync(writing);
          } catch {
            // Not created yet.
          }
        }
        if (backend.changes !== written) writeAtomicSync(path, serialise(backend));
      } catch (error) {
        // The server stops anyway; the file keeps the last state written, and the user hears why not this one.
        process.stderr.write(`linkgate: could not write the state file ${path} at exit: ${(error as Error).message}\n`);
      } finally {
        lock.release();
      }
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
