// `gridsweep run` on a real Slurm (test/support/slurm.ts) whose pilots die as they start: each pilot's batch
// script cannot find `sleep` (sbatch --export=PATH=/nonexistent), so the job fails within a second and no
// task ever runs on it. By the rule simulated batch clusters follow (src/batch/submission.ts: 4 idle pilots
// in a row, or twice "pilots" if more), the run gives the cluster up after the 4th such pilot instead of
// submitting for ever: alone, the run ends not finished (exit status 3) saying why; beside local slots, it
// goes on there and finishes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { expectEachTaskDoneOnce } from '../support/run-support.js';
import { recordOf, slurmGrid, useTestSlurm } from './slurm-run-support.js';

const { origin, run, liveJobs } = useTestSlurm();

/** sbatch arguments that make every pilot's batch script fail at once (its `exec sleep` finds no sleep). */
const DYING = ['--export=PATH=/nonexistent'];

describe('gridsweep run on a real Slurm whose pilots die as they start', () => {
  it('alone: the cluster is given up after 4 idle pilots, and the run ends not finished, saying why', async () => {
    // 3 seeds × 2 sizes = 6 tasks; 1 pilot at a time: the limit is max(4, 2 × 1) = 4 pilots. Tasks of 6 s:
    // a dying pilot's agent may start one before Slurm kills its step (KillWait 2 s), never see it end.
    const o = origin(slurmGrid({ pilots: 1, pilotCores: 1, pilotWalltimeS: 600, sbatchArgs: DYING }), 3, 6);
    const r = await run(o, [], undefined, 120);
    const out = r.stdout + r.stderr;
    expect(r.killedAtLimit, out).toBe(false);
    expect(r.code, out).toBe(3);
    expect(r.stdout).toMatch(/pilot +hpc job -: GAVE UP on cluster hpc, no more pilots are submitted to it: 4 pilots in a row ended with no task run on them/);
    expect(r.stdout).toMatch(/pilots on hpc: 4 submitted, \d started, queue wait .*; given up \(no more pilots\)/);
    expect(r.stdout).toMatch(/tasks: 0 done and verified, 0 skipped \(verified before\), 0 failed, of 6/);
    expect(r.stdout).toMatch(/6 task\(s\) NOT DONE: no host is left to run them: cluster hpc was given up: 4 pilots in a row/);
    expect(r.stderr).toMatch(/gridsweep run: not finished \(exit status 3\): no host is left/);
    // exactly 4 pilots, each submitted and ended in the record; none left in Slurm
    const jobs = recordOf(o).flatMap((e) => (e.type === 'job' ? [e] : []));
    expect(jobs.filter((j) => j.event === 'submit').length).toBe(4);
    expect(jobs.filter((j) => j.event === 'end').length).toBe(4);
    expect(await liveJobs()).toEqual([]);
    // no task was given up (one may have been lost with a pilot as it died): a later run, same journal, does them
    expect(readJournal(o.journalPath).some((e) => e.type === 'failed' && e.final)).toBe(false);
    const runEnd = readFileSync(o.recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; worksDone?: number }).find((e) => e.type === 'run-end');
    expect(runEnd?.worksDone).toBe(0);
  }, 150_000);

  it('beside local slots: the cluster is given up and the run finishes on the slots', async () => {
    const withLocal = {
      realGridJson: (dir: string) =>
        JSON.stringify({
          realgrid: 1,
          clusters: [
            { name: 'here', storage: `${dir}/here-storage`, hosts: { type: 'local', slots: 2 } },
            { name: 'hpc', storage: `${dir}/hpc-storage`, hosts: { type: 'slurm', pilots: 1, pilotCores: 1, pilotWalltimeS: 600, sbatchArgs: DYING } },
          ],
        }),
    };
    // 8 tasks of 6 s on 2 slots: about 24 s, long enough for 4 pilots to die (a few seconds each).
    const o = origin(withLocal, 4, 6);
    const r = await run(o, [], undefined, 150);
    const out = r.stdout + r.stderr;
    expect(r.killedAtLimit, out).toBe(false);
    expect(r.code, out).toBe(0);
    expectEachTaskDoneOnce(o, 4);
    expect(r.stdout).toMatch(/GAVE UP on cluster hpc, no more pilots are submitted to it/);
    expect(r.stdout).toMatch(/pilots on hpc: 4 submitted, .*; given up \(no more pilots\)/);
    expect(r.stdout).not.toMatch(/NOT DONE/);
    expect(await liveJobs()).toEqual([]);
  }, 180_000);
});
