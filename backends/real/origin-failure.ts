// The origin's own failures: a write at the origin (an output arriving, the journal, the run record, a
// task log) that the origin's file system refuses — full (ENOSPC), over quota (EDQUOT), read-only (EROFS)
// or failing (EIO) — or that something in its way stops (a file where a folder of its path goes, ENOTDIR;
// a folder where it goes, EISDIR: made there after the run checked the outputs' places). None of these says anything about the hosts or clusters: the run must not mark one
// down nor run a task again because of it. It ends instead, saying which file, why, and what to do; the
// outputs verified before stay, and running the same command again carries on from the journal.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileErrorReason } from '../../src/util/diagnostics.js';

/** The error codes that mean the origin's file system, not the grid, is at fault. */
export const ORIGIN_ERRNOS: readonly string[] = ['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'ENOTDIR', 'EISDIR'];


/** A write at the origin that its file system refused. */
export class OriginWriteError extends Error {
  override readonly name = 'OriginWriteError';

  constructor(
    /** What was being written: 'an output', 'the journal', 'the run record', 'a task log'. */
    readonly what: string,
    /** The file that could not be written (absolute). */
    readonly path: string,
    /** One of ORIGIN_ERRNOS. */
    readonly code: string,
    detail: string,
  ) {
    super(`${what} could not be written: ${path}: ${code} (${fileErrorReason({ code, message: detail })})`);
  }
}

/** The error code of `err` when it is one of ORIGIN_ERRNOS. */
export function originErrno(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ORIGIN_ERRNOS.includes(code) ? code : undefined;
}

/**
 * `err`, thrown while writing `path` at the origin, as an OriginWriteError when its code says the origin's
 * file system refused the write (an OriginWriteError already is one); undefined for any other error.
 */
export function asOriginFailure(err: unknown, what: string, path: string): OriginWriteError | undefined {
  if (err instanceof OriginWriteError) return err;
  const code = originErrno(err);
  return code === undefined ? undefined : new OriginWriteError(what, resolve(path), code, (err as Error).message);
}

/**
 * The real reason a recursive mkdir of `dir` failed: Node's recursive mkdir reports ENOENT on a read-only
 * file system (it cannot create a parent). Creating the first missing directory alone gives the true errno.
 */
function trueMkdirError(err: unknown, dir: string): unknown {
  if ((err as { code?: unknown } | null)?.code !== 'ENOENT') return err;
  let first = resolve(dir);
  while (!existsSync(dirname(first)) && dirname(first) !== first) first = dirname(first);
  try {
    mkdirSync(first);
  } catch (again) {
    return again;
  }
  return err;
}

/**
 * Creates directory `dir` (and its parents) at the origin; an origin failure throws an OriginWriteError.
 * Returns the first directory it created, as mkdirSync does (undefined: they all existed).
 */
export function mkdirAtOrigin(what: string, dir: string): string | undefined {
  try {
    return mkdirSync(dir, { recursive: true });
  } catch (err) {
    const why = trueMkdirError(err, dir);
    throw asOriginFailure(why, what, dir) ?? why;
  }
}

/** The same on the thread pool (the true errno, rarely needed, is found synchronously). */
export async function mkdirAtOriginAsync(what: string, dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const why = trueMkdirError(err, dir);
    throw asOriginFailure(why, what, dir) ?? why;
  }
}

/** Runs `write` (a synchronous write at the origin), turning an origin failure into an OriginWriteError. */
export function writingAtOrigin<T>(what: string, path: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    throw asOriginFailure(err, what, path) ?? err;
  }
}

/** The same for an asynchronous write. */
export async function writingAtOriginAsync<T>(what: string, path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw asOriginFailure(err, what, path) ?? err;
  }
}

/**
 * Some writers do not report a full disk: SFTP's download (ssh2's fastGet) leaves a short file and says it
 * succeeded. After such a short file `part` (of output `path`), this writes the `missingBytes` it lacks
 * (zeros) at its end with ordinary writes, which do report a full disk: an OriginWriteError when the origin
 * refuses them, undefined when it takes them (the transfer was bad, not the origin: retried as before).
 * Writing, not asking statfs, so that another download freeing or taking space meanwhile cannot mislead it.
 */
export function refusedRoom(what: string, path: string, part: string, missingBytes: number): OriginWriteError | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(part, 'a');
    const zeros = Buffer.alloc(Math.min(missingBytes, 1 << 20));
    for (let left = missingBytes; left > 0; ) left -= writeSync(fd, zeros, 0, Math.min(left, zeros.length));
    fsyncSync(fd);
    return undefined;
  } catch (err) {
    return asOriginFailure(err, what, path);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The mount point of the file system holding `path` (the deepest existing ancestor that is on another
 * device than its parent's, or '/'): where the user must free space.
 */
export function fileSystemOf(path: string): string {
  let dir = resolve(path);
  let dev: number | undefined;
  for (;;) {
    try {
      dev = statSync(dir).dev;
      break;
    } catch {
      const up = dirname(dir);
      if (up === dir) return dir;
      dir = up;
    }
  }
  for (;;) {
    const up = dirname(dir);
    if (up === dir) return dir;
    try {
      if (statSync(up).dev !== dev) return dir;
    } catch {
      return dir;
    }
    dir = up;
  }
}

/** What the user should do about `err`, as one sentence naming the file system. */
export function originFailureAdvice(err: OriginWriteError, again = 'run the same command again'): string {
  const fs = fileSystemOf(err.path);
  const fix =
    err.code === 'ENOSPC' ? `free space on ${fs}` :
    err.code === 'EDQUOT' ? `free space within your quota on ${fs} (or have it raised)` :
    err.code === 'EROFS' ? `make ${fs} writable again` :
    err.code === 'ENOTDIR' || err.code === 'EISDIR' ? `move what is in the way of ${err.path} elsewhere` :
    `check the disk holding ${fs} (dmesg says more)`;
  return `${fix} and ${again}; the outputs verified so far are kept and their tasks are not run again`;
}
