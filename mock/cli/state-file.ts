// `linkgate mock --state <file>` and `--fixture <file>`: the state a server starts from, and the file that keeps it.
// The file is written whole beside the old one and renamed over it (after fsync), so a crash, `kill -9` or a full
// disk at any moment leaves the previous or the new state, never a torn one (mock/state/state-file-write.ts); a lock
// on the real file keeps a second server off (mock/state/state-lock.ts).
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BackendCore } from '../backend.js';
import { FIXTURE_VARIANTS_KEY, fixtureVariants, loadFixture } from '../control/fixture.js';
import type { ProductionVariantName } from '../management/variants.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import {
  isLeftoverTemp,
  stateFileTarget,
  stateTempName,
  writeStateFile,
  writeStateFileSync,
} from '../state/state-file-write.js';
import { type StateLock, StateLockError, takeStateLock } from '../state/state-lock.js';
import { jsonErrorPlace } from './json-error-offset.js';

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
  /**
   * Writes the state now if it changed, releases the lock, and says whether the file holds the state (false: the
   * write failed, the file keeps the last state written, and the reason is on stderr). Synchronous, for exit.
   */
  close(): boolean;
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
    return start.fixture === undefined ? undefined : { notes, close: () => true };
  }
  const path = start.state;
  const target = realTarget(path);
  const lock = lockOrExplain(target, path);
  try {
    removeLeftoverTemps(target);
    const text = readStateText(path);
    if (text === undefined) {
      if (start.fixture !== undefined) notes.push(await applyFixture(backend, start.fixture));
      const created = stateTextFor(path, backend);
      try {
        writeStateFileSync(target, created);
      } catch (error) {
        throw new StateFileError(`The state file ${path} was not created: ${(error as Error).message}`);
      }
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
  return keepCurrent(backend, path, target, lock, notes);
}

/** The file `path` names through any symlinks, or a StateFileError saying why it cannot be reached. */
function realTarget(path: string): string {
  try {
    return stateFileTarget(path);
  } catch (error) {
    throw new StateFileError(`Could not reach the state file ${path}: ${(error as Error).message}`);
  }
}

function lockOrExplain(target: string, path: string): StateLock {
  try {
    return takeStateLock(target, path);
  } catch (error) {
    if (error instanceof StateLockError) throw new StateFileError(error.message);
    throw error;
  }
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
    const { line, column, why } = jsonErrorPlace(text, error);
    throw new StateFileError(
      `The ${what} ${path} is not valid JSON: line ${line}, column ${column}: ${why}. It was left as it is; fix it${
        what === 'state file' ? ', move it aside to start from the seed, or pass another --state file' : ''
      }.`,
    );
  }
}

/** Temp files of writes a killed server never finished: ours now that we hold the lock. */
function removeLeftoverTemps(target: string): void {
  for (const name of readdirSync(dirname(target))) {
    if (!isLeftoverTemp(target, name)) continue;
    try {
      unlinkSync(join(dirname(target), name));
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

/**
 * Every interval, writes the state when it changed since the last write; a write that took longer than the interval
 * is followed at once by the next. The last write happens at close, which says whether it reached the disk.
 */
function keepCurrent(
  backend: BackendCore,
  path: string,
  target: string,
  lock: StateLock,
  notes: string[],
): StateFileKeeper {
  let written = backend.changes;
  let writing: string | undefined;
  let warned = false;
  let startedAt = 0;
  const writeNow = () => {
    if (writing !== undefined || backend.changes === written) return;
    const changes = backend.changes;
    startedAt = performance.now();
    const temp = stateTempName(target);
    writing = temp;
    new Promise<string>((resolve) => resolve(serialise(backend)))
      .then((text) => writeStateFile(target, text, temp))
      .then(
        () => {
          written = changes;
          writing = undefined;
          warned = false;
          // Changes made while a slow write was out wait no longer than that write took.
          if (performance.now() - startedAt >= STATE_WRITE_INTERVAL_MS) writeNow();
        },
        (error: Error) => {
          writing = undefined;
          // Said once until a write succeeds again: a full disk must not flood the log.
          if (!warned) {
            process.stderr.write(
              `linkgate: could not write the state file ${path}: ${error.message}; it keeps the last state written.\n`,
            );
          }
          warned = true;
        },
      );
  };
  const timer = setInterval(writeNow, STATE_WRITE_INTERVAL_MS);
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
        if (backend.changes !== written) writeStateFileSync(target, serialise(backend));
        return true;
      } catch (error) {
        // The server stops anyway; the file keeps the last state written, and the user hears why not this one.
        process.stderr.write(
          `linkgate: could not write the state file ${path} at exit: ${(error as Error).message}; it was left with the last state written, and the changes since are lost.\n`,
        );
        return false;
      } finally {
        lock.release();
      }
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
