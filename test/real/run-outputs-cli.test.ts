// `gridsweep run` on local slots, through the real CLI: where a run's files go and how a run continues.
// The default journal (ORIGIN/.gridsweep/SWEEP/journal.jsonl) makes a second run skip what the first did
// and say so; --fresh moves the journal and task logs aside and recomputes; a controller killed with
// SIGKILL is continued by running the same command again, without redoing a verified task. Each task's
// stdout and stderr are kept (the last 64 KiB of each) in ORIGIN/.gridsweep/SWEEP/logs/, and a task
// given up shows the last lines of its stderr in the summary; --no-task-logs keeps none.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { runGridsweep, spawnGridsweep } from './support/gridsweep-from-source.js';

// The task: `sh task.sh N OUT SECONDS`. Says hello on stdout and warns on stderr; task 2 prints 20,000
// lines of 11 bytes ("line 00001\n"...) on stdout; with FAIL=N in its name's list, task N prints 8 lines
// on stderr and exits 3.
const TASK_SH = `#!/bin/sh
n=$1; out=$2; seconds=$3; fail=$4
echo "hello from task $n"
echo "task $n warns" >&2
if [ "$n" = 2 ]; then awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "line %05d\\n", i }'; fi
if [ "$n" = "$fail" ]; then for i in 1 2 3 4 5 6 7 8; do echo "problem $i of task $n" >&2; done; exit 3; fi
sleep "$seconds"
echo "result of $n" > "$out"
`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An origin with task.sh, a sweep of `tasks` tasks (n = 1..tasks) and a grid of 2 local slots. */
function makeOrigin(tasks: number, seconds: string, fail = '0'): { dir: string; sweep: string; grid: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-outputs-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'task.sh'), TASK_SH);
  const sweep = join(dir, 'sweep.json');
  writeFileSync(
    sweep,
    JSON.stringify({
      sweep: 1,
      command: ['sh', 'task.sh', '{n}', '{out}', seconds, fail],
      parameters: { n: { from: 1, to: tasks } },
      inputs: { program: 'task.sh' },
      outputs: { out: 'results/{n}.txt' },
      estimates: { runTimeS: Number(seconds) + 0.1, outputSizeBytes: 20 },
    }),
  );
  const grid = join(dir, 'grid.json');
  writeFileSync(grid, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: '.storage/here', hosts: { type: 'local', slots: 2 } }] }));
  return { dir, sweep, grid };
}

const journalOf = (dir: string): string => join(dir, '.gridsweep', 'sweep', 'journal.jsonl');
const logsOf = (dir: string): string => join(dir, '.gridsweep', 'sweep', 'logs');

function verifiedIn(journal: string): Set<number> {
  return new Set(readJournal(journal).flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
}

function computedIn(record: string): number[] {
  return readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RunRecordEvent)
    .flatMap((e) => (e.type === 'start' && e.kind === 'compute' ? [e.work!] : []));
}

/** Runs gridsweep; kills it after `limitS` (then code is null). */
function runWithin(args: readonly string[], limitS: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnGridsweep(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitS * 1000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('gridsweep run: an output whose place at the origin is taken', () => {
  it('a file where its folder goes, or a folder where it goes: refused before any task, naming it, exit 1', async () => {
    for (const [taken, message] of [
      ['results', "output 'results/1.txt' cannot be written at the origin: results is a file, not a folder"],
      ['results/2.txt/', "output 'results/2.txt' cannot be written at the origin: it is a folder"],
    ] as const) {
      const o = makeOrigin(3, '0');
      if (taken.endsWith('/')) mkdirSync(join(o.dir, taken), { recursive: true });
      else writeFileSync(join(o.dir, taken), 'mine\n');
      // Before, the run took the failed write for the cluster's, and tried again for ever.
      const r = await runWithin(['run', o.sweep, '--grid', o.grid], 60);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe(`${o.sweep}:1:1: error: ${message}\n  fix: move it out of the way, or change the sweep's "outputs"\n`);
      expect(existsSync(join(o.dir, '.gridsweep')), 'no journal, no task log').toBe(false);
      if (!taken.endsWith('/')) expect(readFileSync(join(o.dir, taken), 'utf8')).toBe('mine\n');
    }
  });
});

describe('gridsweep run: outputs, journal and task logs in the origin', () => {
  it('says where outputs, journal and logs go; a second run skips what is done and says so; --fresh starts over', async () => {
    const o = makeOrigin(4, '0.05');
    const first = await runGridsweep(['run', o.sweep, '--grid', o.grid]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // The origin is a temporary directory outside the working directory: shown whole.
    expect(first.stdout).toContain(`outputs:   ${o.dir}/results/\n`);
    expect(first.stdout).toContain(`journal:   ${journalOf(o.dir)} (a later run continues from it; --fresh starts over)\n`);
    expect(first.stdout).toContain(`task logs: ${logsOf(o.dir)}/N.out and N.err`);
    expect(first.stdout).toMatch(/tasks: 4 done and verified, 0 skipped/);
    expect(first.stdout).toContain(`outputs in ${o.dir}/results/; task logs in ${logsOf(o.dir)}/; journal ${journalOf(o.dir)}\n`);
    expect(verifiedIn(journalOf(o.dir))).toEqual(new Set([0, 1, 2, 3]));
    for (let n = 1; n <= 4; n++) expect(readFileSync(join(o.dir, 'results', `${n}.txt`), 'utf8')).toBe(`result of ${n}\n`);

    // Everything is done: nothing runs, and the run says why.
    const second = await runGridsweep(['run', o.sweep, '--grid', o.grid]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`4 of 4 tasks already done (journal ${journalOf(o.dir)}); running 0 (--fresh starts over)\n`);
    expect(second.stdout).toMatch(/tasks: 0 done and verified, 4 skipped/);

    // An output removed: its task (n = 3, Work 2) is no longer done and runs again, alone.
    rmSync(join(o.dir, 'results', '3.txt'));
    const third = await runGridsweep(['run', o.sweep, '--grid', o.grid, '--record', join(o.dir, 'third.jsonl')]);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('3 of 4 tasks already done');
    expect(third.stdout).toContain('running 1 (--fresh starts over)');
    expect(computedIn(join(o.dir, 'third.jsonl'))).toEqual([2]);
    expect(readFileSync(join(o.dir, 'results', '3.txt'), 'utf8')).toBe('result of 3\n');

    // --fresh: the journal and logs are renamed aside (kept), every task runs again.
    const fresh = await runGridsweep(['run', o.sweep, '--grid', o.grid, '--fresh', '--record', join(o.dir, 'fresh.jsonl')]);
    expect(fresh.code).toBe(0);
    const moved = [...fresh.stdout.matchAll(/^moved aside: (\S+) -> (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(moved.map((m) => m[0])).toEqual([journalOf(o.dir), logsOf(o.dir)]);
    expect(moved[0]![1]).toMatch(/\/\.gridsweep\/sweep\/journal\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
    expect(verifiedIn(moved[0]![1]!)).toEqual(new Set([0, 1, 2, 3]));
    expect(existsSync(join(moved[1]![1]!, '0.out'))).toBe(true);
    expect(fresh.stdout).toMatch(/tasks: 4 done and verified, 0 skipped/);
    expect(computedIn(join(o.dir, 'fresh.jsonl')).sort()).toEqual([0, 1, 2, 3]);
    expect(verifiedIn(journalOf(o.dir))).toEqual(new Set([0, 1, 2, 3]));
    // --fresh and --resume contradict each other: a usage error (exit 2), nothing run.
    const both = await runGridsweep(['run', o.sweep, '--grid', o.grid, '--fresh', '--resume']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one of them');
  }, 60_000);

  it('keeps each task\'s stdout and stderr, the last 64 KiB of each, in the origin', async () => {
    const o = makeOrigin(3, '0');
    const r = await runGridsweep(['run', o.sweep, '--grid', o.grid]);
    expect(r.code).toBe(0);
    const logs = logsOf(o.dir);
    expect(readdirSync(logs).sort()).toEqual(['0.err', '0.out', '1.err', '1.out', '2.err', '2.out']);
    expect(readFileSync(join(logs, '0.out'), 'utf8')).toBe('hello from task 1\n');
    expect(readFileSync(join(logs, '2.err'), 'utf8')).toBe('task 3 warns\n');
    // Task n = 2 (Work 1) wrote "hello from task 2\n" (18 bytes) then 20,000 lines of 11 bytes: 220,018
    // bytes; the log keeps the last 65,536 after a line saying the first 220,018 - 65,536 = 154,482 were left out.
    let full = 'hello from task 2\n';
    for (let i = 1; i <= 20000; i++) full += `line ${String(i).padStart(5, '0')}\n`;
    expect(full.length).toBe(220018);
    const kept = readFileSync(join(logs, '1.out'), 'utf8');
    expect(kept).toBe(`[gridsweep: the first 154482 of 220018 bytes were left out; the last 65536 follow]\n${full.slice(-65536)}`);

    // --no-task-logs keeps none (the earlier run's logs moved aside by --fresh, none written anew).
    const none = await runGridsweep(['run', o.sweep, '--grid', o.grid, '--fresh', '--no-task-logs']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('task logs: none (--no-task-logs)\n');
    expect(none.stdout).toMatch(/tasks: 3 done and verified, 0 skipped/);
    expect(existsSync(logs)).toBe(false);
  }, 60_000);

  it('shows the last lines of a failed task\'s stderr in the summary and keeps all of it in its log', async () => {
    const o = makeOrigin(3, '0', '2');
    const r = await runGridsweep(['run', o.sweep, '--grid', o.grid]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/tasks: 2 done and verified, 0 skipped \(verified before\), 1 failed, of 3/);
    // Task n = 2 is Work 1; its stderr: "task 2 warns", then "problem 1..8 of task 2": the summary shows the last 5.
    const summary = r.stdout.slice(r.stdout.indexOf('makespan:'));
    expect(summary).toContain(
      [
        `task 1 stderr (last lines; all of it in ${logsOf(o.dir)}/1.err):`,
        '    problem 4 of task 2',
        '    problem 5 of task 2',
        '    problem 6 of task 2',
        '    problem 7 of task 2',
        '    problem 8 of task 2',
        '',
      ].join('\n'),
    );
    expect(summary).not.toContain('problem 3 of task 2');
    const err = readFileSync(join(logsOf(o.dir), '1.err'), 'utf8');
    expect(err).toBe(['task 2 warns', ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `problem ${i} of task 2`), ''].join('\n'));
  }, 60_000);

  it('continues a run whose controller was killed (SIGKILL) by running the same command again, redoing no verified task', async () => {
    const o = makeOrigin(12, '0.3');
    const child: ChildProcess = spawnGridsweep(['run', o.sweep, '--grid', o.grid]);
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/^done .*\(4\/12\)$/m.test(out)) child.kill('SIGKILL');
      });
      child.once('exit', () => resolve());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const before = verifiedIn(journalOf(o.dir));
    expect(before.size).toBeGreaterThanOrEqual(4);
    expect(before.size).toBeLessThan(12);

    const record = join(o.dir, 'second.jsonl');
    const second = await runGridsweep(['run', o.sweep, '--grid', o.grid, '--record', record]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`${before.size} of 12 tasks already done (journal ${journalOf(o.dir)})`);
    // Tasks that were running when the controller died finished meanwhile: collected, not run again.
    const collected = [...second.stdout.matchAll(/^collected task (\d+)/gm)].map((m) => Number(m[1]));
    const computed = computedIn(record);
    for (const w of computed) expect(before.has(w)).toBe(false);
    expect(new Set([...before, ...collected, ...computed])).toEqual(new Set([...Array(12).keys()]));
    expect(second.stdout).toMatch(new RegExp(`tasks: ${12 - before.size} done and verified, ${before.size} skipped`));
    expect(verifiedIn(journalOf(o.dir))).toEqual(new Set([...Array(12).keys()]));
    for (let n = 1; n <= 12; n++) expect(readFileSync(join(o.dir, 'results', `${n}.txt`), 'utf8')).toBe(`result of ${n}\n`);
  }, 60_000);
});
