// The lock that keeps a second server off a state file: `<real file>.lock`, holding the owner's pid, start time and
// a random token. It appears whole or not at all (written to a temp file, then hard-linked into place), so a lock
// without an owner is one being taken by an older linkgate or someone's hand, and is held, not stale, while young.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/** How long a lock file without a readable owner counts as held: its writer may still be writing it. */
export const UNWRITTEN_LOCK_GRACE_MS = 10_000;

/** A lock this server cannot take: the message says who holds it and what to do. */
export class StateLockError extends Error {
  override name = 'StateLockError';
}

/** A lock held by this process. */
export interface StateLock {
  /** Deletes the lock file if it is still this process's own (its token); anyone else's is left alone. */
  release(): void;
}

interface LockOwner {
  pid: number;
  since: string;
  token?: string;
}

/**
 * Takes the lock of the state file `target` (a real path: a file reached through a symlink has one lock), or throws
 * a {@link StateLockError} naming the live process holding it. `shownAs` is the path as the user gave it. A lock of a
 * process that is gone is taken over; a lock of none yet is held for {@link UNWRITTEN_LOCK_GRACE_MS}.
 */
export function takeStateLock(target: string, shownAs: string, now: () => number = Date.now): StateLock {
  const lockPath = `${target}.lock`;
  const token = randomBytes(16).toString('hex');
  const owner = JSON.stringify({ pid: process.pid, since: new Date(now()).toISOString(), token });
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createWhole(lockPath, owner)) return heldLock(lockPath, token);
    let raw: string;
    let age: number;
    try {
      raw = readFileSync(lockPath, 'utf8');
      age = now() - statSync(lockPath).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new StateLockError(`Could not read the lock file ${lockPath}: ${(error as Error).message}`);
    }
    const other = parseOwner(raw);
    if (other && isAlive(other.pid)) {
      throw new StateLockError(
        `The state file ${shownAs} is in use by another linkgate mock (process ${other.pid}, since ${other.since}); stop that server first, or pass another --state file (if no linkgate runs as process ${other.pid}, delete ${lockPath}).`,
      );
    }
    if (!other && age < UNWRITTEN_LOCK_GRACE_MS) {
      throw new StateLockError(
        `The state file ${shownAs} is being locked by another process (its lock file ${lockPath} has no owner yet, ${Math.max(0, Math.round(age / 1000))} s old); try again in a few seconds, or delete ${lockPath} if no linkgate mock is starting.`,
      );
    }
    // Its owner is gone (killed, or the machine restarted): the lock is stale.
    removeIfStill(lockPath, raw);
  }
  throw new StateLockError(
    `The state file ${shownAs} was locked by another server starting at the same moment; try again.`,
  );
}

/** Creates `lockPath` holding `owner`, all at once; false when it exists. */
function createWhole(lockPath: string, owner: string): boolean {
  const temp = `${lockPath}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, owner, { flag: 'wx' });
  } catch (error) {
    throw new StateLockError(`Could not create the lock file ${lockPath}: ${(error as Error).message}`);
  }
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: exclusive creation, then the owner in one write (the grace covers the gap).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createExclusive(lockPath, owner);
    }
    throw new StateLockError(`Could not create the lock file ${lockPath}: ${(error as Error).message}`);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
  }
}

function createExclusive(lockPath: string, owner: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StateLockError(`Could not create the lock file ${lockPath}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, owner);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes the stale lock whose text was `raw`, unless another server replaced it meanwhile: the lock is first moved
 * aside (atomically, so only one remover gets it) and put back if what was moved is not what was judged stale.
 */
function removeIfStill(lockPath: string, raw: string): void {
  const aside = `${lockPath}.${randomBytes(8).toString('hex')}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    // Gone already: another server took it over first; the next attempt sees its lock.
    return;
  }
  try {
    if (readFileSync(aside, 'utf8') !== raw) linkSync(aside, lockPath);
  } catch {
    // A newer lock is in place already; ours to remove is the stale copy only.
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Already gone.
    }
  }
}

function heldLock(lockPath: string, token: string): StateLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    // Another server's lock (it judged ours stale, or a hand replaced it) is not ours to delete.
    try {
      if (parseOwner(readFileSync(lockPath, 'utf8'))?.token === token) unlinkSync(lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
  // A crash or process.exit() elsewhere still frees the file for the next server.
  process.once('exit', release);
  return { release };
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(raw) as { pid?: unknown; since?: unknown; token?: unknown };
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid as number) <= 0) return undefined;
    return {
      pid: parsed.pid as number,
      since: String(parsed.since),
      ...(typeof parsed.token === 'string' && { token: parsed.token }),
    };
  } catch {
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
