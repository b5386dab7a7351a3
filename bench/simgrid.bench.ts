// gridsweep against SimGrid, side by side in one run (issues 15 and 31): the simulation benchmark's
// work-queue sweep (bench/support/sim-scenarios.ts: 100,000 tasks on 1,000 hosts in 10 clusters) on two
// stars, (a) hosts whose availability varies every 5 s and (a') hosts at a constant 100 %, simulated by a
// master-worker written against SimGrid's C++ interface (bench/simgrid-twin/master-worker.cpp, built here
// with g++ against Debian's libsimgrid-dev); by gridsweep's engine under the same policy (the minimal work
// queue, bench/support/minimal-sim-child.ts); and by `gridsweep simulate --heuristic workqueue`, the
// project's scheduler, run as an installed command runs (the built file itself, through its first line).
// Each is a whole process, parse included, timed from spawn to exit; they alternate (every contender on
// every star in turn), ROUNDS rounds (default 3). Prints per star the medians, each ratio to SimGrid
// (target ≤ 1.0×), the children's user CPU, and the makespans: under the same policy they must agree to
// 1e-9 relative.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { saveApplication, writeGrid } from '../src/formats/index.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';
import { constantWorkQueue, workQueue, type Scenario } from './support/sim-scenarios.js';
import { buildSimgridTwin, twinInput } from './support/simgrid-twin.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

/** User CPU seconds of the waited-for children so far (Linux: /proc/self/stat's cutime; NaN elsewhere). */
function childrenUserS(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[13]) / 100; // cutime, in clock ticks of 1/100 s (USER_HZ on Linux)
  } catch {
    return NaN;
  }
}

function timed(command: string, args: readonly string[]): { seconds: number; userS: number; stdout: string } {
  const user0 = childrenUserS();
  const t0 = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  return { seconds, userS: childrenUserS() - user0, stdout: r.stdout };
}

function jsonMakespan(stdout: string): number {
  return (JSON.parse(stdout) as { makespanS: number }).makespanS;
}

interface Contender {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly makespan: (stdout: string) => number;
  readonly seconds: number[];
  readonly userS: number[];
  makespanS: number;
}

/** Writes the scenario's inputs into `dir` (and the twin's); returns its three contenders. */
function contendersOf(scenario: Scenario, dir: string, twin: string): Contender[] {
  const app = scenario.app();
  const grid = scenario.grid();
  const appPath = join(dir, 'bench.app');
  const gridPath = join(dir, 'bench.grid');
  saveApplication(appPath, app);
  writeGrid(dir, 'bench.grid', grid);
  writeFileSync(join(dir, 'twin.txt'), twinInput(app, grid));
  return [
    { name: 'SimGrid twin', command: twin, args: [join(dir, 'twin.txt'), '--log=root.thres:critical'], makespan: (out: string) => Number(/^makespan (\S+)$/m.exec(out)?.[1]) },
    { name: 'gridsweep, the same policy', command: process.execPath, args: [YOUNG_GENERATION_FLAG, join(PACKAGE_ROOT, 'dist/bench/support/minimal-sim-child.js'), appPath, gridPath], makespan: jsonMakespan },
    { name: 'gridsweep simulate --heuristic workqueue', command: join(PACKAGE_ROOT, 'dist/src/cli/main.js'), args: ['simulate', '--app', appPath, '--grid', gridPath, '--heuristic', 'workqueue', '--json'], makespan: jsonMakespan },
  ].map((c) => ({ ...c, seconds: [] as number[], userS: [] as number[], makespanS: NaN }));
}

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-simgrid-bench-'));
try {
  const twin = buildSimgridTwin(dir);
  const stars = [workQueue, constantWorkQueue].map((scenario, i) => {
    const starDir = join(dir, `star${i}`);
    mkdirSync(starDir);
    return { scenario, contenders: contendersOf(scenario, starDir, twin) };
  });
  for (let round = 0; round < ROUNDS; round++) {
    for (const star of stars) {
      for (const c of star.contenders) {
        const r = timed(c.command, c.args);
        c.seconds.push(r.seconds);
        c.userS.push(r.userS);
        c.makespanS = c.makespan(r.stdout);
      }
    }
  }
  const relative = (a: number, b: number) => Math.abs(a - b) / b;
  console.log(`each a whole process, spawn to exit, alternated over ${ROUNDS} rounds`);
  for (const { scenario, contenders } of stars) {
    const [simgrid, samePolicy, scheduler] = contenders as [Contender, Contender, Contender];
    const reference = median(simgrid.seconds);
    console.log(scenario.name);
    for (const c of contenders) {
      const ratio = median(c.seconds) / reference;
      const verdict = c === simgrid ? '' : ` — ${ratio.toFixed(2)}× SimGrid (target ≤ 1.0×: ${ratio <= 1 ? 'met' : 'MISSED'})`;
      console.log(
        `  ${c.name.padEnd(42)} median ${median(c.seconds).toFixed(2)} s of ${c.seconds.map((t) => t.toFixed(2)).join(', ')} (user CPU ${median(c.userS).toFixed(2)} s); makespan ${c.makespanS}${verdict}`,
      );
    }
    const agree = relative(samePolicy.makespanS, simgrid.makespanS);
    console.log(`  makespans, the same policy: relative difference ${agree.toExponential(2)} (must be ≤ 1e-9: ${agree <= 1e-9 ? 'agree' : 'DISAGREE'})`);
    const apart = relative(scheduler.makespanS, simgrid.makespanS);
    console.log(
      `  the project's work queue: ${apart.toExponential(2)} from SimGrid's` +
        (apart <= 1e-9 ? '' : "; its link queue is not the twin's FIFO (a host's next input can go before an output already waiting)"),
    );
    if (!(agree <= 1e-9)) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
