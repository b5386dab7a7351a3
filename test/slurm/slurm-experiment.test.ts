// `gridsweep experiment SPEC --grid` on a real Slurm (test/support/slurm.ts: munge, slurmctld, slurmd on
// loopback, one node of 4 CPUs): 24 cells, in 8 tasks, computed by the bundled cell program on 2 pilots
// of 2 cores.
// Early in the experiment one pilot is scancelled while it computes (its task runs again elsewhere) and then the controller is
// SIGKILLed; the same command resumes the grid run from its journal: no cell verified before is started
// again, every task is verified once, and the results are those of the worker-thread run.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlurm, type TestSlurm } from '../support/slurm.js';
import type { JournalEntry } from '../../backends/real/journal.js';
import { checkResumedJournal, disturbThenKill, expectSameResults, journalAtKill, gridsweep, makeScratch, startGridsweep } from '../experiment/support/grid-experiment.js';

/** The Slurm job of the pilot whose host started the latest task still in flight (no outcome yet), if any. */
function pilotComputing(journal: readonly JournalEntry[]): string | undefined {
  const ended = new Set(journal.flatMap((e) => (e.type === 'done' || e.type === 'verified' || e.type === 'failed' ? [`${e.work}@${e.host}`] : [])));
  const inFlight = journal.filter((e): e is Extract<JournalEntry, { type: 'started' }> => e.type === 'started' && !ended.has(`${e.work}@${e.host}`));
  return /^hpc\.(\d+)\./.exec(inFlight.at(-1)?.host ?? '')?.[1];
}

describe('experiment --grid on a real Slurm', () => {
  let slurm: TestSlurm | undefined;
  const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 4);
  beforeAll(async () => {
    slurm = await startSlurm({ cpus: 4 });
  }, 60_000);
  afterAll(async () => {
    await slurm?.stop();
    rmSync(scratch.dir, { recursive: true, force: true });
  }, 60_000);

  it('a pilot scancelled and the controller killed and resumed: each cell verified once, the local results', async () => {
    const s = slurm!;
    const local = join(scratch.dir, 'local');
    const remote = join(scratch.dir, 'remote');
    const gridPath = join(scratch.dir, 'slurm-grid.json');
    writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'hpc', storage: join(scratch.dir, 'hpc-storage'), hosts: { type: 'slurm', pilots: 2, pilotCores: 2, pilotWalltimeS: 600 } }] }, null, 2));
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);

    const args = ['experiment', scratch.specPath, '--out', remote, '--grid', gridPath];
    const first = startGridsweep(args, s.env);
    let cancelled: string | undefined;
    const killedAt = await disturbThenKill(first, remote, {
      // Cancelled while it computes a task (the one started last), early in the run: 7 tasks or more are
      // left for the other pilot's 2 cores, so the run outlasts the controller's next look at the queue.
      disturbAfter: 0,
      disturb: async () => {
        cancelled = pilotComputing(journalAtKill(remote));
        if (cancelled !== undefined) await s.command('scancel', [cancelled]);
        return cancelled !== undefined;
      },
      killAfter: 5,
      // Killed only once the controller has seen the pilot end (it polls the queue), which the checks below read.
      killWhen: () => first.stderr().includes(`pilot   hpc job ${cancelled}: ended`),
    });
    const r1 = await first.result;
    expect(killedAt, r1.stderr).toBeGreaterThanOrEqual(5);
    expect(r1.signal).toBe('SIGKILL');
    const before = journalAtKill(remote);
    expect(new Set(before.flatMap((e) => (e.type === 'verified' ? [e.work] : []))).size).toBeGreaterThanOrEqual(5);

    const second = await gridsweep(args, s.env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('resuming the grid run');
    expect(second.stderr).toMatch(/cancelled \d+ pilot\(s\) left by the run this one resumes/);
    expect(second.stdout).toContain('24 runs: ');
    expectSameResults(local, remote);

    // The whole journal: the first run's lines, then the second's; 24 cells dealt into 8 tasks (2 per pilot
    // core: 2 pilots × 2 cores), each verified once, none verified before the kill started again.
    const journal = checkResumedJournal(remote, before, 8);
    expect(second.stderr).toMatch(/real grid: 24 run\(s\) computed in 8 task\(s\) \(\d+ verified before: resumed\), 0 failed/);
    // The scancelled pilot: a task it was computing failed there (not for good) and ran again elsewhere.
    expect(r1.stderr).toContain(`pilot   hpc job ${cancelled}: ended (CANCELLED)`);
    expect(journal.some((e) => e.type === 'failed' && e.host.startsWith(`hpc.${cancelled}.`) && !e.final)).toBe(true);
    // No pilot left behind.
    expect((await s.command('squeue', ['--noheader', '--states=PENDING,RUNNING,CONFIGURING'])).trim()).toBe('');
  }, 300_000);
});
