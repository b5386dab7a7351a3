// `gridsweep run` on a real Slurm (test/support/slurm.ts) when a pilot's walltime ends while it computes:
// the task it was running is run again on the next pilot, and every task is verified exactly once.
// Slurm counts time limits in whole minutes and enforces them every 30 s, so this case takes up to 150 s:
// a file of its own, to run beside the others.
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { expectEachTaskDoneOnce } from '../support/run-support.js';
import { recordOf, slurmGrid, useTestSlurm } from './slurm-run-support.js';

const { origin, run } = useTestSlurm();

describe('gridsweep run on a real Slurm, at a pilot\'s walltime', () => {
  it('a pilot whose walltime ends mid-task: the task is run again on the next pilot', async () => {
    // Two tasks of 48 s, estimated at 0.5 s: the planner starts the second at about 51 s on a pilot it
    // expects to leave at 54 s (its one-minute walltime less a margin of 6 s). slurmctld enforces time
    // limits every 30 s, so it ends the pilot between 61 s and 91 s, mid-task.
    const o = origin(slurmGrid({ pilots: 1, pilotCores: 1, pilotWalltimeS: 60 }), 1, 48, 0.5);
    const r = await run(o, [], undefined, 220);
    expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 1);
    expect(r.stdout).toMatch(/pilot +hpc job \d+: ended \(TIMEOUT\)/);
    const jobs = recordOf(o).flatMap((e) => (e.type === 'job' ? [e] : []));
    expect(jobs.some((j) => j.event === 'end' && j.killed === true)).toBe(true);
    expect(readJournal(o.journalPath).some((e) => e.type === 'failed' && !e.final)).toBe(true);
  }, 260_000);
});
