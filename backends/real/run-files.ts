// Where `gridsweep run` keeps its own files, in the origin next to the outputs: per sweep file,
// <origin>/.gridsweep/<sweep name>/journal.jsonl (the default journal, so that a run can always be resumed)
// and <origin>/.gridsweep/<sweep name>/logs/ (each task's standard output and error). One directory per
// sweep name, so that two sweeps sharing an origin never read each other's journal. Starting afresh moves
// an earlier run's files aside (renamed with the time), never deletes them.
import { existsSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';

/** The folder, in the origin, that holds gridsweep's own files (listed in .gitignore). */
export const RUN_FILES_FOLDER = '.gridsweep';

export interface RunFiles {
  /** <origin>/.gridsweep/<sweep name> */
  readonly dir: string;
  readonly journal: string;
  readonly logsDir: string;
}

/** The run files of sweep file `sweepPath` in origin `originDir`. */
export function runFilesOf(originDir: string, sweepPath: string): RunFiles {
  const name = basename(sweepPath).replace(/\.json$/i, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'sweep';
  const dir = join(originDir, RUN_FILES_FOLDER, name);
  return { dir, journal: join(dir, 'journal.jsonl'), logsDir: join(dir, 'logs') };
}

/** The journal holds at least one line: a run was started with it. */
export function journalHoldsRun(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}

/**
 * Renames each of `paths` that exists to `<name>.<time><ext>` beside it (journal.jsonl →
 * journal.2026-01-02T03-04-05Z.jsonl, logs → logs.2026-01-02T03-04-05Z); returns what moved where.
 * `now` names the time (a later rename in the same second gets a suffix -2, -3...).
 */
export function moveAside(paths: readonly string[], now: Date = new Date()): { from: string; to: string }[] {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const moved: { from: string; to: string }[] = [];
  for (const from of paths) {
    if (!existsSync(from)) continue;
    const ext = extname(from);
    const stem = from.slice(0, from.length - ext.length);
    let to = `${stem}.${stamp}${ext}`;
    for (let n = 2; existsSync(to); n++) to = `${stem}.${stamp}-${n}${ext}`;
    renameSync(from, to);
    moved.push({ from, to });
  }
  return moved;
}

/** A path as the user should read it: relative to the working directory when inside it, else absolute. */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : rel === '' ? '.' : path;
}

/** The deepest directory holding every output (relative paths in the origin); '' for the origin itself. */
export function outputsDirOf(outputPaths: readonly string[]): string {
  let common: string[] | undefined;
  for (const p of outputPaths) {
    const parts = dirname(p).split('/').filter((x) => x !== '' && x !== '.');
    if (common === undefined) common = parts;
    else {
      let i = 0;
      while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
      common = common.slice(0, i);
    }
    if (common.length === 0) break;
  }
  return (common ?? []).join('/');
}
