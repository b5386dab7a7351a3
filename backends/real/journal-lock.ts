// One controller per journal. Two `gridsweep run`s of the same sweep (a command started twice, a job
// script submitted again) would each run every task, write the same outputs, and interleave their lines
// in one journal. The first holds JOURNAL.lock, which names its process; a second is refused with what to
// do. A lock whose process is gone (a controller killed, the machine rebooted) is taken over, so that the
// same command still resumes such a run.
import { linkSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { mkdirAtOrigin, writingAtOrigin } from './origin-failure.js';

// Written with the journal, in its folder: a failure to write it is the journal's, for the user.
const WHAT = 'the journal';

/** Links `draft` as `path`; false when `path` exists. */
function linked(draft: string, path: string): boolean {
  try {
    writingAtOrigin(WHAT, path, () => linkSync(draft, path));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Removes `dir` and its parents up to `top` while they are empty. */
function removeEmptyFolders(dir: string, top: string): void {
  for (let d = dir; d.startsWith(top); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty: the run wrote there
    }
    if (d === top) return;
  }
}

/** What the lock file holds. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** The process's start, in clock ticks since boot (/proc/PID/stat), so that a reused pid is not taken for it; null where unknown. */
  readonly processStart: number | null;
  readonly since: string;
}

export class JournalBusyError extends Error {
  override readonly name = 'JournalBusyError';
}

export interface JournalLock {
  /** Removes the lock (once; also done when the process exits). */
  release(): void;
}

/** The start time of process `pid` in clock ticks since boot (Linux); null elsewhere or if it has gone. */
function processStartOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const start = processStartOf(owner.pid);
  return owner.processStart === null || start === null || start === owner.processStart;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock of `journalPath` for this process, or throws JournalBusyError naming the run that holds
 * it and saying what else to do (`elsewhere`). Errors writing the lock (a full or read-only origin) are
 * thrown as they come.
 */
export function lockJournal(journalPath: string, elsewhere = 'give this run another --journal'): JournalLock {
  const path = `${journalPath}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostname(), processStart: processStartOf(process.pid), since: new Date().toISOString() };
  const made = mkdirAtOrigin(WHAT, dirname(path));
  // Written whole under another name, then linked: a reader never sees a half-written lock.
  const draft = `${path}.${process.pid}`;
  writingAtOrigin(WHAT, draft, () => writeFileSync(draft, `${JSON.stringify(me)}\n`));
  try {
    for (let attempt = 0; !linked(draft, path); attempt++) {
      const owner = readOwner(path);
      if (owner !== undefined && owner.host !== me.host) {
        throw new JournalBusyError(
          `the journal ${journalPath} is in use by a gridsweep run on ${owner.host} (pid ${owner.pid}, since ${owner.since}); wait for it to end, or ${elsewhere}. If that run is over, remove ${path}`,
        );
      }
      if ((owner !== undefined && isAlive(owner)) || attempt >= 2) {
        throw new JournalBusyError(`the journal ${journalPath} is in use by another gridsweep run${owner ? ` (pid ${owner.pid}, since ${owner.since})` : ''}; wait for it to end, or ${elsewhere}`);
      }
      rmSync(path, { force: true }); // its run is gone (or the file is not a lock): taken over
    }
  } finally {
    rmSync(draft, { force: true });
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    try {
      unlinkSync(path);
    } catch {
      // gone already (moved aside with the journal's folder, say): nothing to release
    }
    // The folders made for the lock alone go with it (a run refused before it wrote anything leaves none).
    if (made !== undefined) removeEmptyFolders(dirname(path), made);
  };
  process.on('exit', release);
  return { release };
}
