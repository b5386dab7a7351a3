// gridsweep against SimGrid, side by side in one run (issue 15): the simulation benchmark's work-queue
// sweep (bench/support/sim-scenarios.ts, case (a): 100,000 tasks on 1,000 hosts) simulated by a
// master-worker written against SimGrid's C++ interface (bench/simgrid-twin/master-worker.cpp, built here
// with g++ against Debian's libsimgrid-dev); by gridsweep's engine under the same policy (the minimal work
// queue, bench/support/minimal-sim-child.ts); and by `gridsweep simulate --heuristic workqueue`, the
// project's scheduler, run as an installed command runs (the built file itself, through its first line).
// Each is a whole process, parse included, timed from spawn to exit; they alternate, three rounds. Prints
// the medians, each ratio to SimGrid (target ≤ 1.0×) and the makespans: under the same policy they must
// agree to 1e-9 relative.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { saveApplication, writeGrid } from '../src/formats/index.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';
import { workQueue } from './support/sim-scenarios.js';
import { buildSimgridTwin, twinInput } from './support/simgrid-twin.js';

const ROUNDS = 3;

function timed(command: string, args: readonly string[]): { seconds: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

function jsonMakespan(stdout: string): number {
  return (JSON.parse(stdout) as { makespanS: number }).makespanS;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-simgrid-bench-'));
try {
  const twin = buildSimgridTwin(dir);
  const app = workQueue.app();
  const grid = workQueue.grid();
  const appPath = join(dir, 'bench.app');
  const gridPath = join(dir, 'bench.grid');
  saveApplication(appPath, app);
  writeGrid(dir, 'bench.grid', grid);
  writeFileSync(join(dir, 'twin.txt'), twinInput(app, grid));
  const contenders = [
    { name: 'SimGrid twin', command: twin, args: [join(dir, 'twin.txt'), '--log=root.thres:critical'], makespan: (out: string) => Number(/^makespan (\S+)$/m.exec(out)?.[1]) },
    { name: 'gridsweep, the same policy', command: process.execPath, args: [YOUNG_GENERATION_FLAG, join(PACKAGE_ROOT, 'dist/bench/support/minimal-sim-child.js'), appPath, gridPath], makespan: jsonMakespan },
    { name: 'gridsweep simulate --heuristic workqueue', command: join(PACKAGE_ROOT, 'dist/src/cli/main.js'), args: ['simulate', '--app', appPath, '--grid', gridPath, '--heuristic', 'workqueue', '--json'], makespan: jsonMakespan },
  ].map((c) => ({ ...c, seconds: [] as number[], makespanS: NaN }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of contenders) {
      const r = timed(c.command, c.args);
      c.seconds.push(r.seconds);
      c.makespanS = c.makespan(r.stdout);
    }
  }
  const [simgrid, samePolicy, scheduler] = contenders as [(typeof contenders)[number], (typeof contenders)[number], (typeof contenders)[number]];
  const reference = median(simgrid.seconds);
  console.log(`${workQueue.name}; each a whole process, spawn to exit, alternated over ${ROUNDS} rounds`);
  for (const c of contenders) {
    const ratio = median(c.seconds) / reference;
    const verdict = c === simgrid ? '' : ` — ${ratio.toFixed(2)}× SimGrid (target ≤ 1.0×: ${ratio <= 1 ? 'met' : 'MISSED'})`;
    console.log(`  ${c.name.padEnd(42)} median ${median(c.seconds).toFixed(2)} s of ${c.seconds.map((t) => t.toFixed(2)).join(', ')}; makespan ${c.makespanS}${verdict}`);
  }
  const relative = (a: number, b: number) => Math.abs(a - b) / b;
  const agree = relative(samePolicy.makespanS, simgrid.makespanS);
  console.log(`  makespans, the same policy: relative difference ${agree.toExponential(2)} (must be ≤ 1e-9: ${agree <= 1e-9 ? 'agree' : 'DISAGREE'})`);
  console.log(
    `  the project's work queue: ${relative(scheduler.makespanS, simgrid.makespanS).toExponential(2)} from SimGrid's; its link queue is not the twin's FIFO (a host's next input can go before an output already waiting)`,
  );
  if (!(agree <= 1e-9)) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
