// A full origin for tests through the real CLI: an origin directory on a small tmpfs (support/tmpfs.ts)
// holding task.sh and a sweep of 20 tasks that write 30 KiB each, a grid whose clusters' storage is off the
// tmpfs (only the origin fills up), `gridsweep run` bounded in time, and the checks that a run stopped for
// the origin's failure and that the next one finished the rest. Used by origin-full*.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readJournal } from '../../../backends/real/journal.js';
import type { RunRecordEvent } from '../../../src/record/events.js';
import { spawnGridsweep } from './gridsweep-from-source.js';
import type { Tmpfs } from './tmpfs.js';

export const TASKS = 20;
export const OUTPUT_BYTES = 30 * 1024;
/** The run must end by itself well within this (it looped for ever before). */
export const BOUND_MS = 60_000;

// `sh task.sh N OUT`: writes 30 KiB of "task N\n" repeated (distinct per task, so a mixed-up output
// shows), and nothing on stdout or stderr (so the first write the full origin refuses is an output's or the
// journal's, not a task log's).
const TASK_SH = `#!/bin/sh
awk -v n="$1" 'BEGIN { s = "task " n "\\n"; while (length(out) < ${OUTPUT_BYTES}) out = out s; printf "%s", substr(out, 1, ${OUTPUT_BYTES}) }' > "$2"
`;

export interface FullOrigin {
  /** The origin, a tmpfs mount point. */
  readonly dir: string;
  readonly sweep: string;
  readonly grid: string;
  /** A directory off the tmpfs, for the clusters' storage, a journal or a record. */
  readonly elsewhere: string;
}

/** 2 local slots, their storage in `elsewhere`. */
export const localGrid = (elsewhere: string): string => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: join(elsewhere, 'storage'), hosts: { type: 'local', slots: 2 } }] });

/**
 * An origin on a tmpfs of `size`: task.sh, the sweep and the grid `gridJson` writes (its clusters' storage
 * off the tmpfs, in `elsewhere`: only the origin fills up).
 */
export function makeFullOrigin(tmpfs: Tmpfs, name: string, size: string, gridJson: (elsewhere: string, dir: string) => string = localGrid): FullOrigin | undefined {
  const dir = tmpfs.mount(name, size);
  if (!dir) return undefined;
  const elsewhere = join(tmpfs.base, `${name}-elsewhere`);
  mkdirSync(elsewhere);
  writeFileSync(join(dir, 'task.sh'), TASK_SH);
  const sweep = join(dir, 'sweep.json');
  writeFileSync(
    sweep,
    JSON.stringify({
      sweep: 1,
      command: ['sh', 'task.sh', '{n}', '{out}'],
      parameters: { n: { from: 1, to: TASKS } },
      inputs: { program: 'task.sh' },
      outputs: { out: 'results/{n}.dat' },
      estimates: { runTimeS: 0.05, outputSizeBytes: OUTPUT_BYTES },
    }),
  );
  const grid = join(dir, 'grid.json');
  writeFileSync(grid, gridJson(elsewhere, dir));
  return { dir, sweep, grid, elsewhere };
}

export function recordOf(path: string): RunRecordEvent[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

/** Works whose compute started in a run record, one entry per attempt. */
export function computed(record: readonly RunRecordEvent[]): number[] {
  return record.flatMap((e) => (e.type === 'start' && e.kind === 'compute' ? [e.work!] : []));
}

/** The Works the journal holds as verified. */
export function verifiedIn(journal: string): Set<number> {
  return new Set(readJournal(journal).flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
}

/** Work n's output as the task writes it. */
export function expectedOutput(n: number): string {
  return `task ${n}\n`.repeat(Math.ceil(OUTPUT_BYTES / `task ${n}\n`.length)).slice(0, OUTPUT_BYTES);
}

/** The checks of the first run, common to both journal places. */
export function checkStopped(run: { code: number | null; stdout: string; stderr: string }, ms: number, dir: string, record: readonly RunRecordEvent[], journal: string): Set<number> {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(4);
  expect(ms).toBeLessThan(BOUND_MS);
  // Which file (on the full disk), why, and what to do.
  expect(run.stderr).toMatch(new RegExp(`gridsweep run: stopped: (an output|the journal|a task log) could not be written: ${dir}/\\S+: ENOSPC \\(no space left on the device\\)`));
  expect(run.stderr).toContain("this is the origin's failure, not the grid's");
  expect(run.stderr).toContain(`to finish: free space on ${dir} and run the same command again`);
  // No host or cluster blamed: nothing went down, nothing was set aside, the grid never changed.
  expect(run.stdout, run.stdout).not.toMatch(/^down /m);
  expect(run.stdout).not.toContain('set aside');
  expect(record.filter((e) => e.type === 'grid' && (e.event.kind === 'REMOVE_HOST' || e.event.kind === 'REMOVE_CLUSTER'))).toEqual([]);
  // No attempt loop: each Work started at most once, in the record and in the journal.
  const starts = computed(record);
  expect(new Set(starts).size).toBe(starts.length);
  const journalStarts = readJournal(journal).flatMap((e) => (e.type === 'started' ? [e.work] : []));
  expect(new Set(journalStarts).size).toBe(journalStarts.length);
  expect(readJournal(journal).filter((e) => e.type === 'failed')).toEqual([]);
  // The disk (300 KiB, 8 pages of 4 KiB per output) holds some outputs, not all 20 (600 KiB).
  const verified = verifiedIn(journal);
  expect(verified.size).toBeGreaterThan(0);
  expect(verified.size).toBeLessThan(TASKS);
  for (const w of verified) expect(readFileSync(join(dir, 'results', `${w + 1}.dat`), 'utf8')).toBe(expectedOutput(w + 1));
  return verified;
}

/** The checks of the second run, once the disk is bigger: the rest done, nothing verified before redone. */
export function checkFinished(run: { code: number | null; stdout: string; stderr: string }, dir: string, record: readonly RunRecordEvent[], verifiedBefore: ReadonlySet<number>): void {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`${verifiedBefore.size} of ${TASKS} tasks already done`);
  const redone = computed(record).filter((w) => verifiedBefore.has(w));
  expect(redone).toEqual([]);
  for (let n = 1; n <= TASKS; n++) expect(readFileSync(join(dir, 'results', `${n}.dat`), 'utf8')).toBe(expectedOutput(n));
}

/** Runs `gridsweep ARGS`, killed (SIGKILL) if still running after BOUND_MS; with how long it ran, ms. */
export function runWithinBound(args: readonly string[]): Promise<[{ code: number | null; stdout: string; stderr: string }, number]> {
  const t0 = Date.now();
  const child = spawnGridsweep(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve([{ code, stdout, stderr }, Date.now() - t0]);
    }),
  );
}

