// One controller per journal, one experiment per results folder. Two `gridsweep run`s of the same sweep
// (a command started twice, a job script submitted again) would each run every task, write the same
// outputs, and interleave their lines in one journal; two experiments on one folder would compute the same
// runs twice and overwrite each other's results. The first holds a lock file that names its process; a
// second is refused with what to do. A lock whose process is gone (a controller killed, the machine
// rebooted) is taken over, so that the same command still resumes.
import { linkSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { mkdirAtOrigin, writingAtOrigin } from './origin-failure.js';

/** Links `draft` as `path`; false when `path` exists. */
function linked(what: string, draft: string, path: string): boolean {
  try {
    writingAtOrigin(what, path, () => linkSync(draft, path));
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
 * it and saying what else to do. Errors writing the lock (a full or read-only origin) are thrown as they
 * come: the journal's, for the user (it is written in the journal's folder).
 */
export function lockJournal(journalPath: string): JournalLock {
  return takeLock(`${journalPath}.lock`, { subject: `the journal ${journalPath}`, holder: 'run', elsewhere: 'give this run another --journal', what: 'the journal' });
}

/** The lock file of an experiment's results folder. */
export const RESULTS_FOLDER_LOCK = '.gridsweep-experiment.lock';

/** The same for an experiment's results folder (RESULTS_FOLDER_LOCK in it). */
export function lockResultsFolder(outDir: string): JournalLock {
  return takeLock(join(outDir, RESULTS_FOLDER_LOCK), { subject: `the results folder ${outDir}`, holder: 'experiment', elsewhere: 'give this experiment another --out', what: 'the results folder' });
}

interface LockTerms {
  /** What is locked, as the refusal names it. */
  readonly subject: string;
  /** The command that holds such a lock: 'run', 'experiment'. */
  readonly holder: string;
  /** What else to do than wait. */
  readonly elsewhere: string;
  /** What a failure to write the lock is a failure to write (origin-failure.ts). */
  readonly what: string;
}

function takeLock(path: string, t: LockTerms): JournalLock {
  const me: LockOwner = { pid: process.pid, host: hostname(), processStart: processStartOf(process.pid), since: new Date().toISOString() };
  const made = mkdirAtOrigin(t.what, dirname(path));
  // Written whole under another name, then linked: a reader never sees a half-written lock.
  const draft = `${path}.${process.pid}`;
  writingAtOrigin(t.what, draft, () => writeFileSync(draft, `${JSON.stringify(me)}\n`));
  try {
    for (let attempt = 0; !linked(t.what, draft, path); attempt++) {
      const owner = readOwner(path);
      if (owner !== undefined && owner.host !== me.host) {
        throw new JournalBusyError(
          `${t.subject} is in use by a gridsweep ${t.holder} on ${owner.host} (pid ${owner.pid}, since ${owner.since}); wait for it to end, or ${t.elsewhere}. If that ${t.holder} is over, remove ${path}`,
        );
      }
      if ((owner !== undefined && isAlive(owner)) || attempt >= 2) {
        throw new JournalBusyError(`${t.subject} is in use by another gridsweep ${t.holder}${owner ? ` (pid ${owner.pid}, since ${owner.since})` : ''}; wait for it to end, or ${t.elsewhere}`);
      }
      rmSync(path, { force: true }); // its holder is gone (or the file is not a lock): taken over
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
