// What the real-run tests (namespaced SSH hosts, a test Slurm) share: an origin directory with a sweep
// of `sh task.sh` tasks (two shared models, one output each), `gridsweep run` as a child process read
// line by line, and the check that every task was verified exactly once with the right output.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const TASK_SCRIPT = [
  '#!/bin/sh',
  '# usage: sh task.sh SEED MODEL OUT SECONDS',
  'set -eu',
  'sleep "$4"',
  'printf "seed %s model %s\\n" "$1" "$(cksum < "$2")" > "$3"',
  '',
].join('\n');

export interface Origin {
  readonly dir: string;
  readonly sweepPath: string;
  readonly gridPath: string;
  readonly journalPath: string;
  readonly recordPath: string;
}

/** Writes a real grid file for an origin directory (a namespaced grid's, or a test's own). */
export interface GridWriter {
  realGridJson(originDir: string, extra: Record<string, unknown>): string;
}

/**
 * `gridExtra` is merged into the real grid file's top level (e.g. keepalive, deadlines); `estimateS` is
 * the run time the sweep tells the scheduler (default: a little more than `seconds`).
 */
export function makeOrigin(grid: GridWriter, seeds: number, seconds: number, gridExtra: Record<string, unknown> = {}, estimateS = seconds + 0.1): Origin {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-netns-origin-'));
  writeFileSync(join(dir, 'task.sh'), TASK_SCRIPT);
  mkdirSync(join(dir, 'models'));
  for (const size of ['small', 'large']) writeFileSync(join(dir, 'models', `${size}.txt`), `${size} model\n`.repeat(size === 'small' ? 10 : 5000));
  const sweepPath = join(dir, 'sweep.json');
  writeFileSync(
    sweepPath,
    JSON.stringify({
      sweep: 1,
      command: ['sh', 'task.sh', '{seed}', '{model}', '{out}', String(seconds)],
      parameters: { size: ['small', 'large'], seed: { from: 1, to: seeds } },
      inputs: { program: 'task.sh', model: 'models/{size}.txt' },
      outputs: { out: 'results/{size}-{seed}.txt' },
      estimates: { runTimeS: estimateS, outputSizeBytes: 40 },
    }),
  );
  const gridPath = join(dir, 'grid.json');
  writeFileSync(gridPath, grid.realGridJson(dir, gridExtra));
  return { dir, sweepPath, gridPath, journalPath: join(dir, 'journal.jsonl'), recordPath: join(dir, 'run.jsonl') };
}

function expectedOutput(origin: Origin, seed: number, size: string): string {
  const cksum = execFileSync('cksum', { input: readFileSync(join(origin.dir, 'models', `${size}.txt`)), encoding: 'utf8' }).trim();
  return `seed ${seed} model ${cksum}\n`;
}

/**
 * Runs the CLI; `onLine` sees each stdout line as it comes. A run still going after `limitS` is killed
 * (SIGKILL), and the result says so, so that a run that never ends fails its test instead of outliving it.
 */
export async function runCli(
  args: readonly string[],
  onLine: (line: string, child: ChildProcess) => void,
  limitS = 100,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string; killedAtLimit: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let killedAtLimit = false;
  const limit = setTimeout(() => {
    killedAtLimit = true;
    child.kill('SIGKILL');
  }, limitS * 1000);
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    partial += d.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const l of lines) onLine(l, child);
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(limit);
  return { code, stdout, stderr, killedAtLimit };
}

function countBy<T>(items: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

/** Every task verified exactly once in the journal and done exactly once in the record; outputs correct. */
export function expectEachTaskDoneOnce(origin: Origin, seeds: number): void {
  const total = 2 * seeds;
  const verified = countBy(readJournal(origin.journalPath).flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
  expect([...verified.keys()].sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
  expect([...verified.values()].every((n) => n === 1)).toBe(true);
  const record = readFileSync(origin.recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
  const done = countBy(record.flatMap((e) => (e.type === 'work-done' ? [e.work] : [])));
  expect([...done.keys()].sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
  expect([...done.values()].every((n) => n === 1)).toBe(true);
  expect(record.at(-1)).toMatchObject({ type: 'run-end', worksDone: total, worksFailed: 0 });
  for (const size of ['small', 'large']) {
    for (let seed = 1; seed <= seeds; seed++) {
      expect(readFileSync(join(origin.dir, 'results', `${size}-${seed}.txt`), 'utf8')).toBe(expectedOutput(origin, seed, size));
    }
  }
}

/**
 * The controller killed and resumed: runs the sweep of `o` (work queue, tasks of a few seconds), SIGKILLs
 * it 1.5 s after it starts (one task running on each of `running` host slots), waits 4 s for the agents
 * to finish those tasks without it, and resumes it. Checks that the resumed run collected them (on hosts
 * matching `hostPattern`), that every task started and was verified exactly once over both runs, and
 * that every output is right.
 */
export async function expectKilledRunCollected(o: Origin, seeds: number, running: number, hostPattern: string): Promise<void> {
  const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
  let killed = false;
  const first = await runCli(args, (line, child) => {
    if (!killed && line.startsWith('start')) {
      killed = true;
      setTimeout(() => child.kill('SIGKILL'), 1500);
    }
  });
  expect(first.code).toBe(null);
  const startedBefore = readJournal(o.journalPath).flatMap((e) => (e.type === 'started' ? [e.work] : []));
  expect(startedBefore.length).toBe(running);
  await new Promise((r) => setTimeout(r, 4000));
  const second = await runCli([...args, '--resume'], () => undefined);
  expect(second.code, second.stdout + second.stderr).toBe(0);
  for (const work of startedBefore) expect(second.stdout).toMatch(new RegExp(`collected task ${work} on ${hostPattern}: it finished while gridsweep was not running`));
  const journal = readJournal(o.journalPath);
  const all = [...Array(2 * seeds).keys()];
  expect(journal.flatMap((e) => (e.type === 'started' ? [e.work] : [])).sort((a, b) => a - b)).toEqual(all);
  expect(journal.flatMap((e) => (e.type === 'verified' ? [e.work] : [])).sort((a, b) => a - b)).toEqual(all);
  expect(second.stdout).toMatch(new RegExp(`tasks: ${2 * seeds} done and verified, 0 skipped`));
  for (const size of ['small', 'large']) {
    for (let seed = 1; seed <= seeds; seed++) expect(readFileSync(join(o.dir, 'results', `${size}-${seed}.txt`), 'utf8')).toBe(expectedOutput(o, seed, size));
  }
}
