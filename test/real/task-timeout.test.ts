// `gridsweep run --task-timeout S`: a task still running S seconds after it started is killed (its whole
// process group: nothing of it is left running) and the attempt counts as failed, "timed out after S s";
// after three such attempts the task is given up, and the run ends with the others done. Without the
// option a task that hangs holds its slot, and the run, for ever.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { runCli } from '../support/run-support.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Processes whose command line holds `mark`. */
function processesWith(mark: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('gridsweep run --task-timeout', () => {
  it('kills a task that runs past the limit, counts each such attempt failed, and gives it up after three', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-task-timeout-'));
    dirs.push(dir);
    // Task 3 hangs (a child process that sleeps, as a stuck solver would); the others take 0.1 s. The
    // sleep's length is this test's own, so that its process can be looked for.
    const mark = `600.${process.pid}${Date.now() % 1000}`;
    const sweepPath = join(dir, 'sweep.json');
    writeFileSync(
      sweepPath,
      JSON.stringify({
        sweep: 1,
        command: ['sh', '-c', 'if [ "$1" = 3 ]; then sleep "$2"; fi; sleep 0.1; echo "task $1" > "$3"', 'task', '{i}', mark, '{out}'],
        parameters: { i: { from: 1, to: 6 } },
        outputs: { out: 'results/{i}.txt' },
        estimates: { runTimeS: 0.1, outputSizeBytes: 10 },
      }),
    );
    const gridPath = join(dir, 'grid.json');
    writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }));
    const journalPath = join(dir, 'journal.jsonl');
    const startedMs = Date.now();
    const r = await runCli(['run', sweepPath, '--grid', gridPath, '--journal', journalPath, '--heuristic', 'workqueue', '--no-watch', '--task-timeout', '1.5'], () => undefined, 60);
    const log = `${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    // Three attempts of 1.5 s each, and the rest: well under the 600 s the task would sleep.
    expect((Date.now() - startedMs) / 1000, log).toBeLessThan(30);
    expect(r.code, log).toBe(1);
    expect(r.stdout, log).toMatch(/^tasks: 5 done and verified, 0 skipped \(verified before\), 1 failed, of 6$/m);
    const failures = readJournal(journalPath).flatMap((e) => (e.type === 'failed' ? [e] : []));
    expect(failures.map((f) => f.work)).toEqual([2, 2, 2, 2]);
    expect(failures.filter((f) => !f.final).map((f) => f.reason)).toEqual(Array(3).fill(expect.stringMatching(/^timed out after 1\.5 s: exit code /)));
    // Each attempt's whole process group was killed: its sleeping child too.
    expect(processesWith(mark), 'a timed-out task left processes running').toEqual([]);
  }, 90_000);

  it('refuses a limit that is not a positive number of seconds', async () => {
    const r = await runCli(['run', 'sweep.json', '--grid', 'grid.json', '--task-timeout', '0'], () => undefined, 30);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--task-timeout takes a number from 0\.1/);
  });
});
