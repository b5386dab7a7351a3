// `gridsweep run` when the origin's disk fills up, through the real CLI on local slots: the origin is a
// 300 KiB tmpfs this test mounts (tests run as root; skipped, saying why, where mounting is refused), and
// 20 tasks write 30 KiB each (600 KiB: the disk fills about half-way). The run must end by itself, with
// exit status 4 and a message naming the file, the errno and what to do, having marked no host or cluster
// down and run no task twice; once the disk is bigger, the same command finishes the rest without running
// a verified task again. Once with the journal on the full disk (the default place), once elsewhere.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { runGridsweep, spawnGridsweep } from './support/gridsweep-from-source.js';
import { Tmpfs } from './support/tmpfs.js';

const TASKS = 20;
const OUTPUT_BYTES = 30 * 1024;
/** The run must end by itself well within this (it looped for ever before). */
const BOUND_MS = 60_000;

// `sh task.sh N OUT`: writes 30 KiB of "task N\n" repeated (distinct per task, so a mixed-up output
// shows), and nothing on stdout or stderr (so the first write the full origin refuses is an output's or the
// journal's, not a task log's).
const TASK_SH = `#!/bin/sh
awk -v n="$1" 'BEGIN { s = "task " n "\\n"; while (length(out) < ${OUTPUT_BYTES}) out = out s; printf "%s", substr(out, 1, ${OUTPUT_BYTES}) }' > "$2"
`;

const tmpfs = new Tmpfs();
afterAll(() => tmpfs.removeAll());

/** An origin on a tmpfs of `size`: task.sh, the sweep and a grid of 2 local slots whose storage is off it. */
function makeOrigin(name: string, size: string): { dir: string; sweep: string; grid: string; elsewhere: string } | undefined {
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
  // The cluster's storage is on an ordinary disk: only the origin is full.
  writeFileSync(grid, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: join(elsewhere, 'storage'), hosts: { type: 'local', slots: 2 } }] }));
  return { dir, sweep, grid, elsewhere };
}

function recordOf(path: string): RunRecordEvent[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

/** Works whose compute started in a run record, one entry per attempt. */
function computed(record: readonly RunRecordEvent[]): number[] {
  return record.flatMap((e) => (e.type === 'start' && e.kind === 'compute' ? [e.work!] : []));
}

/** The Works the journal holds as verified. */
function verifiedIn(journal: string): Set<number> {
  return new Set(readJournal(journal).flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
}

/** Work n's output as the task writes it. */
function expectedOutput(n: number): string {
  return `task ${n}\n`.repeat(Math.ceil(OUTPUT_BYTES / `task ${n}\n`.length)).slice(0, OUTPUT_BYTES);
}

/** The checks of the first run, common to both journal places. */
function checkStopped(run: { code: number | null; stdout: string; stderr: string }, ms: number, dir: string, record: readonly RunRecordEvent[], journal: string): Set<number> {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(4);
  expect(ms).toBeLessThan(BOUND_MS);
  // Which file (on the full disk), why, and what to do.
  expect(run.stderr).toMatch(new RegExp(`gridsweep run: stopped: (an output|the journal|a task log) could not be written: ${dir}/\\S+: ENOSPC \\(no space left on the device\\)`));
  expect(run.stderr).toContain("this is the origin's failure, not the grid's");
  expect(run.stderr).toContain(`to finish: free space on ${dir} and run the same command again`);
  // No host or cluster blamed: nothing went down, nothing was set aside, the grid never changed.
  expect(run.stdout).not.toMatch(/^down /m);
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
function checkFinished(run: { code: number | null; stdout: string; stderr: string }, dir: string, record: readonly RunRecordEvent[], verifiedBefore: ReadonlySet<number>): void {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`${verifiedBefore.size} of ${TASKS} tasks already done`);
  const redone = computed(record).filter((w) => verifiedBefore.has(w));
  expect(redone).toEqual([]);
  for (let n = 1; n <= TASKS; n++) expect(readFileSync(join(dir, 'results', `${n}.dat`), 'utf8')).toBe(expectedOutput(n));
}

/** Runs `gridsweep ARGS`, killed (SIGKILL) if still running after BOUND_MS; with how long it ran, ms. */
function runWithinBound(args: readonly string[]): Promise<[{ code: number | null; stdout: string; stderr: string }, number]> {
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

describe('gridsweep run: the origin runs out of space', () => {
  it('journal on the full disk: ends with exit 4 and what to do; after remounting bigger, the same command finishes the rest', async (ctx) => {
    const o = makeOrigin('same-disk', '300k');
    if (!o) return ctx.skip(tmpfs.whyNot);
    const recordPath = join(o.elsewhere, 'record.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    const journal = join(o.dir, '.gridsweep', 'sweep', 'journal.jsonl');
    const verified = checkStopped(first, ms, o.dir, recordOf(recordPath), journal);

    tmpfs.resize(o.dir, '4m');
    const second = await runGridsweep(command);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
    expect(verifiedIn(journal).size).toBe(TASKS);
  }, 120_000);

  it('journal elsewhere: ends with exit 4 and says to add --resume; after deleting a filler file, --resume finishes the rest', async (ctx) => {
    // 900 KiB, 600 of them taken by a filler: 300 KiB free, as above; deleting the filler makes room for
    // all 20 outputs (600 KiB).
    const o = makeOrigin('journal-elsewhere', '900k');
    if (!o) return ctx.skip(tmpfs.whyNot);
    writeFileSync(join(o.dir, 'filler'), Buffer.alloc(600 * 1024, 1));
    const recordPath = join(o.elsewhere, 'record.jsonl');
    const journal = join(o.elsewhere, 'journal.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--journal', journal, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    const verified = checkStopped(first, ms, o.dir, recordOf(recordPath), journal);
    // The journal is off the full disk: it is an output that could not be written.
    expect(first.stderr).toMatch(/stopped: an output could not be written/);
    expect(first.stderr).toContain('run the same command again with --resume');

    rmSync(join(o.dir, 'filler'));
    const second = await runGridsweep([...command, '--resume']);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
  }, 120_000);
});

describe('gridsweep run: the run record runs out of space', () => {
  it('the record on a full disk stops the run as the origin does (exit 4, naming the record); after resizing, the same command finishes', async (ctx) => {
    const o = makeOrigin('roomy', '4m');
    const small = tmpfs.mount('record-disk', '8k');
    if (!o || !small) return ctx.skip(tmpfs.whyNot);
    const recordPath = join(small, 'record.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(4);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(first.stderr).toContain(`gridsweep run: stopped: the run record could not be written: ${recordPath}: ENOSPC (no space left on the device)`);
    expect(first.stderr).toContain(`to finish: free space on ${small} and run the same command again`);
    expect(first.stdout).not.toMatch(/^down /m);
    const journal = join(o.dir, '.gridsweep', 'sweep', 'journal.jsonl');
    const entries = readJournal(journal);
    expect(entries.filter((e) => e.type === 'failed')).toEqual([]);
    const starts = entries.flatMap((e) => (e.type === 'started' ? [e.work] : []));
    expect(new Set(starts).size).toBe(starts.length);
    // 8 KiB of record is not enough for 20 tasks (each takes a start and an end line of compute and of
    // output transfer, about 4 x 100 bytes): the run stopped before the end.
    const verified = verifiedIn(journal);
    expect(verified.size).toBeLessThan(TASKS);

    tmpfs.resize(small, '1m');
    const second = await runGridsweep(command);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
  }, 120_000);
});
