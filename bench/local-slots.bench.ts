// Local slots against the two tools a user has on one machine, in one run: 3,000 short tasks (task i
// writes out/i.txt, i zero-padded to 100 bytes, through `sh -c`), 2 at a time.
//  - gridsweep: `gridsweep run --journal` on a real grid of one local cluster with 2 slots (the local agent
//    runs each task; every output checked against the size and SHA-256 reported, and journaled);
//  - GNU parallel: `parallel -j2` (a shell per job);
//  - dask.distributed: a LocalCluster of 2 worker processes (1 thread each), each task a subprocess.run of
//    the same `sh -c` (Debian's python3-distributed, run with /usr/bin/python3).
// Figures per tool, medians of the repetitions (interleaved): tasks per second over the whole process's
// wall time (start-up included), CPU per task of its whole process tree (tasks included), and for
// gridsweep the CPU of its own process (the controller: `node --import` of support/controller-cpu.js),
// then the ratios. Target (issue 28): gridsweep's tasks/s at least the faster of the two others.
// Every tool's outputs are checked after every run. Knobs: GRIDSWEEP_BENCH_REPS (default 3),
// GRIDSWEEP_BENCH_LOCAL_TASKS (default 3000), GRIDSWEEP_BENCH_QUICK=1 (300 tasks, 1 repetition).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../src/experiment/results.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { smallOutputWorkload } from './support/compare-workloads.js';
import { controllerCpuProbe } from './support/controller-cpu-reader.js';
import { timed, type Timed } from './support/timed-command.js';

const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
const PARALLEL = '/usr/bin/parallel';
const PYTHON = '/usr/bin/python3';
const SLOTS = 2;

const quick = process.env['GRIDSWEEP_BENCH_QUICK'] === '1';
const reps = Number(process.env['GRIDSWEEP_BENCH_REPS'] ?? (quick ? 1 : 3));
const tasks = Number(process.env['GRIDSWEEP_BENCH_LOCAL_TASKS'] ?? (quick ? 300 : 3000));

// The dask side: the same command per task, 2 worker processes; exits 0 once every task exited 0.
const DASK_SCRIPT = `
import subprocess, sys
from distributed import Client, LocalCluster

def task(i):
    return subprocess.run(['sh', '-c', 'printf "%0100d" "$1" > "$2"', 'task', str(i), 'out/%d.txt' % i]).returncode

if __name__ == '__main__':
    n = int(sys.argv[1])
    with LocalCluster(n_workers=${SLOTS}, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        codes = client.gather(client.map(task, range(1, n + 1)))
    sys.exit(0 if all(c == 0 for c in codes) else 1)
`;

interface Side {
  readonly label: string;
  readonly wallS: number[];
  readonly treeCpuS: number[];
  readonly controllerCpuS: number[];
  failure?: string;
}

const side = (label: string): Side => ({ label, wallS: [], treeCpuS: [], controllerCpuS: [] });

function tailOf(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ').slice(-600);
}

function missing(): { gridsweep?: string; parallel?: string; dask?: string } {
  const daskMissing = existsSync(PYTHON) ? distributedMissing() : `${PYTHON} is missing (Debian package python3)`;
  return {
    ...(existsSync(CLI) ? {} : { gridsweep: `${CLI} is missing (run npm run build first)` }),
    ...(existsSync(PARALLEL) ? {} : { parallel: `${PARALLEL} is missing (Debian package parallel)` }),
    ...(daskMissing ? { dask: daskMissing } : {}),
  };
}

function distributedMissing(): string | undefined {
  const r = spawnSync(PYTHON, ['-c', 'import distributed'], { stdio: 'ignore' });
  return r.status === 0 ? undefined : `${PYTHON} cannot import distributed (Debian package python3-distributed; scripts/install-test-deps.sh installs it)`;
}

function record(s: Side, r: Timed, check: () => string | undefined, controllerCpuS?: number): void {
  const wrong = r.code !== 0 ? `exit ${r.code}: ${tailOf(r.stderr || r.stdout)}` : check();
  if (wrong !== undefined) {
    s.failure = `run failed: ${wrong}`;
    return;
  }
  s.wallS.push(r.seconds);
  if (r.treeCpuS !== undefined) s.treeCpuS.push(r.treeCpuS);
  if (controllerCpuS !== undefined) s.controllerCpuS.push(controllerCpuS);
  const ctl = controllerCpuS !== undefined ? `, controller ${((controllerCpuS / tasks) * 1e6).toFixed(0)} µs CPU/task` : '';
  const tree = r.treeCpuS !== undefined ? `, ${((r.treeCpuS / tasks) * 1e3).toFixed(2)} ms CPU/task (process tree)` : '';
  console.log(`  ${s.label.padEnd(34)} ${r.seconds.toFixed(2)} s wall, ${(tasks / r.seconds).toFixed(0)} tasks/s${tree}${ctl}`);
}

async function main(): Promise<void> {
  const w = smallOutputWorkload(tasks);
  const gridPath = join(w.dir, 'grid.json');
  writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: 'storage', hosts: { type: 'local', slots: SLOTS } }] }));
  writeFileSync(join(w.dir, 'dask_run.py'), DASK_SCRIPT);
  const gs = side(`gridsweep (local, ${SLOTS} slots)`);
  const gp = side(`GNU parallel -j${SLOTS}`);
  const dk = side(`dask.distributed (${SLOTS} workers)`);
  const m = missing();
  if (m.gridsweep) gs.failure = m.gridsweep;
  if (m.parallel) gp.failure = m.parallel;
  if (m.dask) dk.failure = m.dask;
  console.log(`${tasks} tasks, each \`sh -c 'printf "%0100d" i > out/i.txt'\`, ${SLOTS} at a time on this machine; repetitions: ${reps}, interleaved`);
  try {
    for (let rep = 0; rep < reps; rep++) {
      if (gs.failure === undefined) {
        w.clearOutputs();
        const cpu = controllerCpuProbe();
        const journal = join(w.dir, `journal-${rep}.jsonl`);
        const r = await timed([process.execPath, ...cpu.nodeArgs, CLI, 'run', w.sweepPath, '--grid', gridPath, '--journal', journal], w.dir, { ...process.env, ...cpu.env });
        const verified = Number(/tasks: (\d+) done and verified/.exec(r.stdout)?.[1]);
        record(gs, r, () => (verified !== tasks ? `${verified} of ${tasks} tasks verified` : w.checkOutputs()), cpu.read());
        cpu.remove();
      }
      if (gp.failure === undefined) {
        w.clearOutputs();
        mkdirSync(join(w.dir, 'out'));
        const r = await timed([PARALLEL, `-j${SLOTS}`, '-a', w.parallelArgFile, 'printf "%0100d" {} > out/{}.txt'], w.dir);
        record(gp, r, () => w.checkOutputs());
      }
      if (dk.failure === undefined) {
        w.clearOutputs();
        mkdirSync(join(w.dir, 'out'));
        const r = await timed([PYTHON, join(w.dir, 'dask_run.py'), String(tasks)], w.dir);
        record(dk, r, () => w.checkOutputs());
      }
    }
  } finally {
    w.remove();
  }
  console.log('\nmedians:');
  const rate = (s: Side): number | undefined => (s.wallS.length > 0 ? tasks / median(s.wallS) : undefined);
  for (const s of [gs, gp, dk]) {
    if (s.failure !== undefined || s.wallS.length === 0) {
      console.log(`  ${s.label}: not measured — ${s.failure ?? 'no run'}`);
      continue;
    }
    const tree = s.treeCpuS.length > 0 ? `, ${((median(s.treeCpuS) / tasks) * 1e3).toFixed(2)} ms CPU/task (process tree)` : '';
    const ctl = s.controllerCpuS.length > 0 ? `, controller ${((median(s.controllerCpuS) / tasks) * 1e6).toFixed(0)} µs CPU/task` : '';
    console.log(`  ${s.label}: ${rate(s)!.toFixed(0)} tasks/s${tree}${ctl}`);
  }
  const g = rate(gs);
  const others = [gp, dk].map((s) => ({ s, r: rate(s) })).filter((o): o is { s: Side; r: number } => o.r !== undefined);
  if (g !== undefined) {
    for (const o of others) console.log(`  ratio gridsweep/${o.s.label} (tasks per second): ${(g / o.r).toFixed(2)}×`);
    if (others.length > 0) {
      const best = Math.max(...others.map((o) => o.r));
      console.log(`  target (issue 28): ≥ the faster of the others (${best.toFixed(0)} tasks/s): ${g >= best ? 'met' : 'NOT met'}`);
    }
    if (gs.controllerCpuS.length > 0 && gs.treeCpuS.length > 0) {
      const ctl = (median(gs.controllerCpuS) / tasks) * 1e3;
      const tree = (median(gs.treeCpuS) / tasks) * 1e3;
      console.log(`  gridsweep's CPU per task: ${ctl.toFixed(2)} ms the controller, ${(tree - ctl).toFixed(2)} ms the local agent and the task itself`);
    }
  }
}

await main();
