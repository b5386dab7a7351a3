// `gridsweep run` on a real Slurm whose partition "urgent" preempts "main", where the pilots run: a job
// submitted to "urgent" mid-run takes the node, Slurm requeues the pilots (PreemptMode=REQUEUE), and the
// run lets their hosts go, cancels the requeued jobs, and finishes on new pilots once the urgent job is
// done, every task verified exactly once.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';
import { startSlurm, type TestSlurm } from '../support/slurm.js';
import { slurmGrid } from './slurm-run-support.js';

describe('gridsweep run on a real Slurm that preempts its pilots', () => {
  let slurm: TestSlurm;
  let origin: Origin | undefined;
  beforeAll(async () => {
    slurm = await startSlurm({ cpus: 4, preemption: true });
  }, 60_000);
  afterAll(async () => {
    await slurm?.stop();
    if (origin) rmSync(origin.dir, { recursive: true, force: true });
  }, 60_000);

  it('requeued pilots leave, are cancelled and replaced; their tasks run again', async () => {
    origin = makeOrigin(slurmGrid({ pilots: 2, pilotCores: 2, pilotWalltimeS: 600, partition: 'main' }), 6, 2);
    const o = origin;
    let urgent: Promise<string> | undefined;
    const r = await runCli(
      ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'],
      (line) => {
        if (!urgent && line.startsWith('done')) {
          urgent = slurm.command('sbatch', ['--parsable', '--partition=urgent', '--job-name=urgent', '--cpus-per-task=4', '--time=1', '--output=/dev/null', '--wrap=sleep 10']);
        }
      },
      150,
      slurm.env,
    );
    expect(urgent).toBeDefined();
    await urgent;
    expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 6);
    // both first pilots were preempted and requeued (seen requeued or pending again)
    expect(r.stdout.match(/pilot +hpc job [12]: requeued by Slurm \(now [A-Z_]+: preempted, or its node lost\)/g)?.length, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/pilots on hpc: [4-9] submitted/);
    expect(readJournal(o.journalPath).some((e) => e.type === 'failed' && !e.final && e.host.startsWith('hpc.'))).toBe(true);
    const live = await slurm.command('squeue', ['--noheader', '--states=PENDING,RUNNING,CONFIGURING', '--format=%i %j']);
    expect(live.trim().split('\n').filter((l) => /gridsweep-/.test(l))).toEqual([]);
  }, 180_000);
});
