// gridsweep on a real Slurm (bench/support/test-slurm.ts: munge, slurmctld and one slurmd of 4 CPUs on
// loopback, started here), against the same sweep on 4 local process slots in the same run:
//  (a) 200 trivial tasks (a tiny private input, a tiny output each) on 2 pilots of 2 cores: tasks per
//      second end to end, pilots submitted and started, queue waits; the local run is the reference (the
//      cost of going through Slurm: sbatch, the queue, srun and the agent in each pilot).
//  (b) the same sweep while another job holds every CPU of the node for 10 s: the queue wait the pilots
//      see, and what it costs the makespan.
// Each run is the whole `gridsweep run` process (node dist/src/cli/main.js), timed from spawn to exit,
// its outputs checked. Runs of (a) alternate local and Slurm; medians of GRIDSWEEP_BENCH_REPS (default 3).
// Needs root and Debian's munge, slurmctld, slurmd and slurm-client, and a build (`npm run build`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../src/experiment/results.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { trivialWorkload, type Workload } from './support/compare-workloads.js';
import { startSlurm, type TestSlurm } from './support/test-slurm.js';
import { timed, type Timed } from './support/timed-command.js';

const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
const reps = Number(process.env['GRIDSWEEP_BENCH_REPS'] ?? 3);
const TASKS = 200;

type Run = Timed;

async function gridsweepRun(w: Workload, gridPath: string, env: NodeJS.ProcessEnv): Promise<Run> {
  w.clearOutputs();
  const r = await timed([process.execPath, CLI, 'run', w.sweepPath, '--grid', gridPath, '--no-watch'], w.dir, env);
  if (r.code !== 0) throw new Error(`gridsweep run exited with ${r.code}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  const wrong = w.checkOutputs();
  if (wrong) throw new Error(`gridsweep run: ${wrong}`);
  return r;
}

function pilotLine(stdout: string): string {
  return /^pilots on hpc: .*$/m.exec(stdout)?.[0] ?? '(no pilot summary)';
}

async function main(): Promise<void> {
  let slurm: TestSlurm | undefined;
  const w = trivialWorkload(TASKS);
  try {
    slurm = await startSlurm({ cpus: 4 });
    const localGrid = join(w.dir, 'grid-local.json');
    writeFileSync(localGrid, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: '.storage', hosts: { type: 'local', slots: 4 } }] }));
    const slurmGrid = join(w.dir, 'grid-slurm.json');
    writeFileSync(slurmGrid, JSON.stringify({ realgrid: 1, clusters: [{ name: 'hpc', storage: join(w.dir, 'hpc-storage'), hosts: { type: 'slurm', pilots: 2, pilotCores: 2, pilotWalltimeS: 600 } }] }));

    console.log(`(a) ${TASKS} trivial tasks: 4 local slots vs 2 Slurm pilots of 2 cores, ${reps} run(s) each, alternating`);
    const local: number[] = [];
    const onSlurm: Run[] = [];
    for (let i = 0; i < reps; i++) {
      local.push((await gridsweepRun(w, localGrid, process.env)).seconds);
      onSlurm.push(await gridsweepRun(w, slurmGrid, slurm.env));
    }
    const localS = median(local);
    const slurmS = median(onSlurm.map((r) => r.seconds));
    console.log(`  local slots: median ${localS.toFixed(2)} s (${(TASKS / localS).toFixed(1)} tasks/s); runs ${local.map((s) => s.toFixed(2)).join(', ')}`);
    console.log(`  Slurm pilots: median ${slurmS.toFixed(2)} s (${(TASKS / slurmS).toFixed(1)} tasks/s, ${(slurmS / localS).toFixed(2)}× the local run); runs ${onSlurm.map((r) => r.seconds.toFixed(2)).join(', ')}`);
    console.log(`  last Slurm run: ${pilotLine(onSlurm[onSlurm.length - 1]!.stdout)}`);

    console.log('(b) the same sweep while a job holds the node\'s 4 CPUs for 10 s');
    await slurm.command('sbatch', ['--parsable', '--job-name=blocker', '--cpus-per-task=4', '--time=1', '--output=/dev/null', '--wrap=sleep 10']);
    const blocked = await gridsweepRun(w, slurmGrid, slurm.env);
    console.log(`  Slurm pilots: ${blocked.seconds.toFixed(2)} s (${(blocked.seconds - slurmS).toFixed(2)} s more than (a)); ${pilotLine(blocked.stdout)}`);
    console.log('  (also running: nothing else of the benchmark; this machine\'s other load is not controlled)');
  } finally {
    await slurm?.stop();
    w.remove();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
