// `gridsweep probe` on a real grid with a real Slurm cluster (test/support/slurm.ts: one node of 4 CPUs,
// partition "main", sched/backfill) beside local slots: the Slurm cluster is written as a batch cluster
// (ADD_BATCH_CLUSTER) from what sinfo and scontrol say, the local one as before; the description loads and
// a sweep simulated on it runs on pilots of the probed cluster. A partition Slurm does not have is an
// error and nothing is written.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadGrid } from '../../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { expandSweep } from '../../src/sweep/expand.js';
import { loadSweepFile } from '../../src/sweep/sweep-file.js';
import { runGridsweep } from '../real/support/gridsweep-from-source.js';
import { makeOrigin, sweepOf } from '../real/support/origin.js';
import { startSlurm, type TestSlurm } from '../support/slurm.js';

describe('gridsweep probe on a real Slurm cluster', () => {
  let slurm: TestSlurm;
  let work: string;

  beforeAll(async () => {
    slurm = await startSlurm({ cpus: 4 });
    work = mkdtempSync(join(tmpdir(), 'gridsweep-slurm-probe-'));
  }, 60_000);
  afterAll(async () => {
    await slurm?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  const gridFile = (name: string, slurmHosts: Record<string, unknown> = {}): string => {
    const path = join(work, `${name}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        realgrid: 1,
        clusters: [
          { name: 'here', storage: join(work, 'here-storage'), hosts: { type: 'local', slots: 2 } },
          { name: 'hpc', storage: join(work, 'hpc-storage'), hosts: { type: 'slurm', env: { SLURM_CONF: slurm.conf }, ...slurmHosts } },
        ],
      }),
    );
    return path;
  };

  it('writes the Slurm cluster as a batch cluster from sinfo: its node, its CPUs, its scheduler, its time limit', async () => {
    const out = join(work, 'probed');
    const r = await runGridsweep(['probe', gridFile('grid'), '-o', out, '--samples', '2', '--interval', '0.2', '--transfer-bytes', '65536']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^hpc: bandwidth median \d+ B\/s, latency median [\d.]+ ms, batch cluster, partition main: 1 node\(s\) of 4 CPU\(s\), policy conservative$/m);
    expect(r.stdout).toMatch(/^here: .*, 2 host\(s\)$/m);

    const { grid } = loadGrid(join(out, 'real.grid'));
    // The test Slurm: one node of 4 CPUs (slurm.cpus) in partition main, SchedulerType sched/backfill.
    const batch = grid.events.filter((e) => e.kind === 'ADD_BATCH_CLUSTER');
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatchObject({ kind: 'ADD_BATCH_CLUSTER', timeS: 0, cluster: 'hpc', behavior: 'link_hpc', offset: 0, nodes: 1, coresPerNode: slurm.cpus, policy: 'conservative', allocator: 'first-fit', hostBehavior: 'cores_hpc', arch: 0 });
    expect(grid.events.flatMap((e) => (e.kind === 'ADD_CLUSTER' ? [e.cluster] : []))).toEqual(['here']);
    expect(grid.hostBehaviors.get('cores_hpc')?.availabilityPct).toEqual([100, 100]);
    const text = readFileSync(join(out, 'real.grid'), 'utf8');
    expect(text).toMatch(/^# hpc: partition main, 1 node\(s\) of 4 CPU\(s\), policy conservative from SchedulerType sched\/backfill/m);
    expect(text).toMatch(/^# hpc: time limit none$/m);

    // The description simulates: 3 seeds x 2 sizes of 1 s on pilots of the probed cluster (and the local slots).
    const origin = makeOrigin(sweepOf(3, '1'));
    try {
      const app = expandSweep(loadSweepFile(origin.sweepPath), { originDir: origin.dir }).application;
      const sim = simulate({ app, grid, scheduler: DEFAULT_SCHEDULER_OPTIONS, seed: 1, samplePeriodS: 0.2, submission: { strategy: 'pilots', pilots: 1, pilotWalltimeS: 600 } });
      expect(sim.finished).toBe(true);
      expect(sim.worksDone).toBe(6);
      expect(sim.batch[0]).toMatchObject({ cluster: 'hpc', nodes: 1, coresPerNode: 4, policy: 'conservative' });
    } finally {
      origin.remove();
    }
  }, 120_000);

  it("notes the partition's time limit, after scontrol sets one", async () => {
    await slurm.command('scontrol', ['update', 'PartitionName=main', 'MaxTime=30']);
    try {
      const out = join(work, 'probed-limit');
      const r = await runGridsweep(['probe', gridFile('grid-limit', { partition: 'main' }), '-o', out, '--samples', '1', '--transfer-bytes', '65536']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      // MaxTime=30 is 30 minutes: 1800 s
      expect(readFileSync(join(out, 'real.grid'), 'utf8')).toMatch(/^# hpc: time limit 00:30:00 \(1800 s\): simulate with --pilot-walltime 1800 or less$/m);
    } finally {
      await slurm.command('scontrol', ['update', 'PartitionName=main', 'MaxTime=INFINITE']);
    }
  }, 120_000);

  it('a partition Slurm does not have: a clear error, exit 1, nothing written', async () => {
    const out = join(work, 'never');
    const r = await runGridsweep(['probe', gridFile('grid-bad', { partition: 'nosuch' }), '-o', out, '--samples', '1']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/1 batch cluster\(s\) could not be described:\n {2}hpc: .*nosuch/);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
