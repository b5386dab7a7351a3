// A million-task work queue's memory and time (issue 31, target 5): the constant star (1,000 hosts in 10
// clusters, every host's availability a constant 100 %, links 10 ms and 1e8 B/s) and a sweep of N tasks,
// each with a private 1 MB input, 100 s of work and a 10 KB output (bench/support/sim-scenarios.ts'
// workQueueApp, written here line by line in the same layout), for N = 100k, 250k, 500k and 1M. Each
// `gridsweep simulate --heuristic workqueue --json` runs as a whole process, as an installed command runs
// (the built file itself, through its first line), under GNU time, which gives its peak resident set and
// user CPU. Prints the cost curve: peak RSS, memory per Work ((peak − the peak of a
// one-task run) / N, and peak / N), user CPU and wall time, medians; then the SimGrid twin's time on the
// largest sweep, its runs alternated with gridsweep's. Targets: peak ≤ 1 GB and ≤ 1 KB per Work at 1M,
// time ≤ 1.5× SimGrid's.
// Usage: node dist/bench/million.bench.js (SIZES=100000,250000,… REPS=N, default 3; KEEP=DIR writes the
// inputs into DIR and keeps them; NO_TWIN=1 skips SimGrid).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { APPLICATION_HEADER_KEYWORD } from '../src/formats/application.js';
import { writeGrid } from '../src/formats/index.js';
import type { Application } from '../src/model/application.js';
import type { GridDescription, GridEvent } from '../src/model/grid.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { buildSimgridTwin, twinInput } from './support/simgrid-twin.js';
import { median } from './support/median.js';

const SIZES = (process.env.SIZES ?? '100000,250000,500000,1000000').split(',').map(Number);
const REPS = Number(process.env.REPS ?? 3);
const TARGET_PEAK_MB = 1024;
const TARGET_BYTES_PER_WORK = 1024;
const TARGET_RATIO = 1.5;
const GNU_TIME = '/usr/bin/time';

/** The constant star: 10 clusters of 100 hosts, one constant 100 % host behaviour, 10 ms and 1e8 B/s links. */
function constantStar(): GridDescription {
  const events: GridEvent[] = [];
  for (let c = 0; c < 10; c++) {
    events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: `cluster${c}`, behavior: 'link', offset: 0 });
    for (let h = 0; h < 100; h++) events.push({ kind: 'ADD_HOST', timeS: 0, cluster: `cluster${c}`, host: `host${c}.${h}`, behavior: 'cpu', offset: 0, arch: 0 });
  }
  return {
    version: '1',
    events,
    linkBehaviors: new Map([['link', { kind: 'link', name: 'link', samples: [{ latencyMs: 10, bandwidthBps: 1e8 }] }]]),
    hostBehaviors: new Map([['cpu', { kind: 'host', name: 'cpu', availabilityPct: [100] }]]),
  };
}

/** writeApplication(workQueueApp(tasks)) written in chunks, so that a million tasks need no 141 MB string here. */
function writeWorkQueueApp(path: string, tasks: number): void {
  const fd = openSync(path, 'w');
  try {
    let chunk = `${APPLICATION_HEADER_KEYWORD} 1 ${2 * tasks} ${tasks}\n`;
    const flush = (force: boolean) => {
      if (force || chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    };
    for (let w = 0; w < tasks; w++) {
      chunk += `File: <${2 * w}> <in_${w}> <1000000> <1000000>\nFile: <${2 * w + 1}> <out_${w}> <10000> <10000>\n`;
      flush(false);
    }
    for (let w = 0; w < tasks; w++) {
      chunk += `Work: <${w}> <1 : ${2 * w}> <1 : ${2 * w + 1}> <1 : 100> <1 : 100>\n`;
      flush(false);
    }
    flush(true);
  } finally {
    closeSync(fd);
  }
}

interface Run {
  readonly wallS: number;
  readonly userS: number;
  readonly peakMb: number;
  readonly stdout: string;
}

/** One whole process under GNU time: wall (spawn to exit), user CPU and peak resident set. */
function measure(argv: readonly string[]): Run {
  const t0 = performance.now();
  const r = spawnSync(GNU_TIME, ['-f', 'million-bench %M %U %e', ...argv], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallS = (performance.now() - t0) / 1000;
  const m = /million-bench (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  return { wallS, userS: Number(m[2]), peakMb: Number(m[1]) / 1024, stdout: r.stdout };
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing: this benchmark reads peak memory and user CPU from GNU time (apt-get install time)`);
const keep = process.env.KEEP;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'gridsweep-million-'));
mkdirSync(dir, { recursive: true });
try {
  const grid = constantStar();
  writeGrid(dir, 'star.grid', grid);
  const gridPath = join(dir, 'star.grid');
  const appPath = (n: number) => join(dir, `wq-${n}.app`);
  const sizes = [1, ...SIZES];
  for (const n of sizes) if (!existsSync(appPath(n))) writeWorkQueueApp(appPath(n), n);
  const simulate = (n: number) => measure([join(PACKAGE_ROOT, 'dist/src/cli/main.js'), 'simulate', '--app', appPath(n), '--grid', gridPath, '--heuristic', 'workqueue', '--json']);

  const largest = Math.max(...SIZES);
  const wantTwin = process.env.NO_TWIN === undefined;
  let twin: string | undefined;
  if (wantTwin) {
    twin = buildSimgridTwin(dir);
    // The twin reads only the first task's shape and the count: a one-task Application with the count set.
    const one: Application = {
      version: '1',
      files: [
        { id: 0, name: 'in_0', sizeBytes: 1_000_000, estSizeBytes: 1_000_000 },
        { id: 1, name: 'out_0', sizeBytes: 10_000, estSizeBytes: 10_000 },
      ],
      works: [{ id: 0, inputs: [0], outputs: [1], runTimeS: [100], estRunTimeS: [100] }],
    };
    writeFileSync(join(dir, 'twin.txt'), twinInput(one, grid).replace(/^tasks 1$/m, `tasks ${largest}`));
  }

  const runs = new Map<number, Run[]>(sizes.map((n) => [n, []]));
  const twinRuns: Run[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    for (const n of sizes) {
      runs.get(n)!.push(simulate(n));
      if (n === largest && twin !== undefined) twinRuns.push(measure([twin, join(dir, 'twin.txt'), '--log=root.thres:critical']));
    }
  }

  const cpu = cpus();
  console.log(`constant star, work queue; ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, load ${loadavg()[0]!.toFixed(1)}; whole processes, medians of ${REPS}`);
  const baseMb = median(runs.get(1)!.map((r) => r.peakMb));
  console.log(`  1 task (baseline): peak ${baseMb.toFixed(1)} MB, user ${median(runs.get(1)!.map((r) => r.userS)).toFixed(2)} s`);
  console.log('  tasks      peak MB   (peak−base)/task   peak/task   user s   wall s   makespan s');
  let largestRow: { peakMb: number; perWork: number; wallS: number; userS: number } | undefined;
  for (const n of SIZES) {
    const rs = runs.get(n)!;
    const peakMb = median(rs.map((r) => r.peakMb));
    const perWork = ((peakMb - baseMb) * 2 ** 20) / n;
    const perWorkAll = (peakMb * 2 ** 20) / n;
    const userS = median(rs.map((r) => r.userS));
    const wallS = median(rs.map((r) => r.wallS));
    const makespanS = (JSON.parse(rs[0]!.stdout) as { makespanS: number }).makespanS;
    console.log(
      `  ${String(n).padStart(9)}  ${peakMb.toFixed(1).padStart(8)}   ${perWork.toFixed(0).padStart(10)} B     ${perWorkAll.toFixed(0).padStart(7)} B  ${userS.toFixed(2).padStart(7)}  ${wallS.toFixed(2).padStart(7)}   ${makespanS}`,
    );
    if (n === largest) largestRow = { peakMb, perWork: perWorkAll, wallS, userS };
  }
  if (largestRow !== undefined) {
    console.log(`  ${largest} tasks: peak ${largestRow.peakMb.toFixed(0)} MB (target ≤ ${TARGET_PEAK_MB} MB: ${verdict(largestRow.peakMb <= TARGET_PEAK_MB)}); ${largestRow.perWork.toFixed(0)} B per Work, parsing included (target ≤ ${TARGET_BYTES_PER_WORK} B: ${verdict(largestRow.perWork <= TARGET_BYTES_PER_WORK)})`);
  }
  if (twinRuns.length > 0 && largestRow !== undefined) {
    const twinWall = median(twinRuns.map((r) => r.wallS));
    const twinUser = median(twinRuns.map((r) => r.userS));
    const twinPeak = median(twinRuns.map((r) => r.peakMb));
    const makespan = Number(/^makespan (\S+)$/m.exec(twinRuns[0]!.stdout)?.[1]);
    console.log(`  SimGrid twin, ${largest} tasks: wall ${twinWall.toFixed(2)} s of ${twinRuns.map((r) => r.wallS.toFixed(2)).join(', ')}; user ${twinUser.toFixed(2)} s; peak ${twinPeak.toFixed(0)} MB; makespan ${makespan}`);
    const ratio = largestRow.wallS / twinWall;
    console.log(`  gridsweep / SimGrid: wall ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×: ${verdict(ratio <= TARGET_RATIO)}), user ${(largestRow.userS / twinUser).toFixed(2)}×`);
  }
} finally {
  if (keep === undefined) rmSync(dir, { recursive: true, force: true });
}
