// How a state file is replaced: the whole text written to a temp file of an unpredictable name beside the real file
// (created exclusively, never through a link planted there), every byte checked written, fsynced, then renamed over
// it. A write that fails anywhere removes its temp file and throws: the previous file stays as it was.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** The mode of a state file this server creates: it holds every key, so only its owner reads it. */
export const NEW_STATE_FILE_MODE = 0o600;

/** A temp file of a state write: `<file>.<16 hex>.tmp`, and those of older linkgates (`<file>.<pid>[.async].tmp`). */
const TEMP_NAME = /\.([0-9a-f]{16}|\d+(\.async)?)\.tmp$/;

/** The one write of `fs.writeSync`, swappable so a test can play a disk that fills up (a short write). */
export type WriteOnce = (fd: number, data: Uint8Array, offset: number, length: number) => number;

const writeOnce: WriteOnce = (fd, data, offset, length) => writeSync(fd, data, offset, length);

/**
 * The file `path` names, following symlinks: a `--state` given as a link locks and writes the file it points at, and
 * the link stays a link. A missing file (or a link to one) resolves to where it will be created.
 */
export function stateFileTarget(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    let link: string | undefined;
    try {
      link = lstatSync(current).isSymbolicLink() ? readlinkSync(current) : undefined;
    } catch {
      // Nothing there: the file is created at this name.
    }
    if (link === undefined) return join(realpathSync(dirname(current)), basename(current));
    current = resolve(dirname(current), link);
  }
  throw new Error(`${path} is a chain of more than 40 symbolic links`);
}

/** Where a write of `target` puts its text first: beside it, named at random so no one can plant a link there. */
export function stateTempName(target: string): string {
  return `${target}.${randomBytes(8).toString('hex')}.tmp`;
}

/** Whether `name` (a file beside `target`) is a temp file a write of `target` left behind. */
export function isLeftoverTemp(target: string, name: string): boolean {
  const base = basename(target);
  // `<file>.lock.<hex>.tmp` is a lock being taken by a server starting now: not a write's.
  return name.startsWith(`${base}.`) && !name.startsWith(`${base}.lock.`) && TEMP_NAME.test(name);
}

/** The mode the new file gets: the one the user gave the file (`chmod 640`), else {@link NEW_STATE_FILE_MODE}. */
function modeFor(target: string): number {
  try {
    return statSync(target).mode & 0o7777;
  } catch {
    return NEW_STATE_FILE_MODE;
  }
}

/**
 * Replaces `target` with `text` (see the file's comment), synchronously: at start and at exit. Throws the first
 * error (a short write is `ENOSPC`); `target` is then untouched and the temp file gone.
 */
export function writeStateFileSync(target: string, text: string, write: WriteOnce = writeOnce): void {
  const temp = stateTempName(target);
  const data = Buffer.from(text);
  const fd = openSync(temp, 'wx', NEW_STATE_FILE_MODE);
  try {
    try {
      fchmodSync(fd, modeFor(target));
      for (let done = 0; done < data.length; ) {
        const wrote = write(fd, data, done, data.length - done);
        // A disk that takes no more bytes: the rest would be missing from the file.
        if (wrote <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        done += wrote;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Renamed already, or never created.
    }
    throw error;
  }
  syncFolder(target);
}

/** {@link writeStateFileSync} without blocking the server: the periodic writes; `temp` from {@link stateTempName}. */
export async function writeStateFile(target: string, text: string, temp = stateTempName(target)): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', NEW_STATE_FILE_MODE);
    await handle.chmod(modeFor(target));
    // writeFile writes until every byte is out, or rejects (ENOSPC, EIO): never a short file.
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  syncFolder(target);
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
