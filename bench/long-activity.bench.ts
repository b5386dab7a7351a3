// A long activity's cost (issue 31, target 6): the appendix example (apps/appendix-b.app on
// griddescs/appendix-a) with Work 0's run and estimated times set to 1e6 s and to 1e8 s, simulated
// alternately: as whole `gridsweep simulate --json` processes (wall time, what the issue measured), and in
// this process (CPU time of load + simulate, warmed up). A computation's end is found in closed form and a
// periodic scheduling event with nothing to plan runs no plan, so what still grows with the length is one
// timer per plan interval: the in-process figure shows it. Target: the 1e8 s command within 2× the 1e6 s
// one (medians). Usage: node dist/bench/long-activity.bench.js (REPS=N, default 5).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate } from '../backends/sim/simulate.js';
import { loadApplication, loadGrid } from '../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { runWithYoungGeneration } from './support/young-generation.js';
import { median } from './support/median.js';

runWithYoungGeneration();

const LENGTHS_S = [1e6, 1e8];
const REPETITIONS = Number(process.env.REPS ?? 5);
const TARGET_RATIO = 2;

const original = readFileSync(join(PACKAGE_ROOT, 'apps/appendix-b.app'), 'utf8');
const WORK0 = /^Work: <0> (<[^>]*>) (<[^>]*>) <[^>]*> <[^>]*>$/m;
if (!WORK0.test(original)) throw new Error('apps/appendix-b.app: Work 0 not found as expected');
const dir = mkdtempSync(join(tmpdir(), 'gs-long-activity-'));
const appPath = (lengthS: number): string => join(dir, `long-${lengthS}.app`);
for (const lengthS of LENGTHS_S) {
  const times = `< 3 : ${lengthS} ${lengthS} ${lengthS} >`;
  writeFileSync(appPath(lengthS), original.replace(WORK0, (_, inputs: string, outputs: string) => `Work: <0> ${inputs} ${outputs} ${times} ${times}`));
}
const gridPath = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');

/** Wall seconds of one `gridsweep simulate --json` process. */
function command(lengthS: number): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/src/cli/main.js'), 'simulate', '--app', appPath(lengthS), '--grid', gridPath, '--json'], { stdio: ['ignore', 'ignore', 'ignore'] });
  if (r.status !== 0) throw new Error(`gridsweep simulate exited with ${r.status ?? r.signal}`);
  return (performance.now() - start) / 1000;
}

/** User + system CPU seconds of one load and simulation. */
function once(lengthS: number): { cpuS: number; makespanS: number; planCalls: number; events: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.cpuUsage();
  const app = loadApplication(appPath(lengthS));
  const { grid } = loadGrid(gridPath);
  const r = simulate({ app, grid, scheduler: DEFAULT_SCHEDULER_OPTIONS, seed: 1 });
  const used = process.cpuUsage(start);
  return { cpuS: (used.user + used.system) / 1e6, makespanS: r.makespanS, planCalls: r.planCalls, events: r.events };
}

try {
  const wall = new Map<number, number[]>(LENGTHS_S.map((l) => [l, []]));
  for (const lengthS of LENGTHS_S) command(lengthS); // warm-up (file cache)
  for (let k = 0; k < REPETITIONS; k++) for (const lengthS of LENGTHS_S) wall.get(lengthS)!.push(command(lengthS));
  console.log(`appendix example, Work 0 run for ${LENGTHS_S.join(' s and ')} s; ${REPETITIONS} runs each, alternated`);
  console.log('  gridsweep simulate --json, whole process (wall):');
  for (const lengthS of LENGTHS_S) console.log(`    ${String(lengthS).padStart(9)} s: median ${median(wall.get(lengthS)!).toFixed(3)} s`);
  const commandRatio = median(wall.get(LENGTHS_S[1]!)!) / median(wall.get(LENGTHS_S[0]!)!);
  console.log(`    ratio ${commandRatio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×, ${commandRatio <= TARGET_RATIO ? 'met' : 'MISSED'})`);
  for (const lengthS of LENGTHS_S) once(lengthS); // warm-up
  const cpu = new Map<number, number[]>(LENGTHS_S.map((l) => [l, []]));
  const last = new Map<number, ReturnType<typeof once>>();
  for (let k = 0; k < REPETITIONS; k++) {
    for (const lengthS of LENGTHS_S) {
      const r = once(lengthS);
      cpu.get(lengthS)!.push(r.cpuS);
      last.set(lengthS, r);
    }
  }
  console.log('  in this process, warmed up (CPU time of load + simulate):');
  for (const lengthS of LENGTHS_S) {
    const r = last.get(lengthS)!;
    console.log(`    ${String(lengthS).padStart(9)} s: median ${median(cpu.get(lengthS)!).toFixed(3)} s; makespan ${r.makespanS} s, ${r.planCalls} plans, ${r.events} events`);
  }
  const ratio = median(cpu.get(LENGTHS_S[1]!)!) / median(cpu.get(LENGTHS_S[0]!)!);
  console.log(`    ratio ${ratio.toFixed(2)}× (the timers: one event per plan interval)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
