// gridsweep against GNU parallel (the tool users have), on the same SSH hosts in one run: 5 real sshd hosts
// in network namespaces, 2 clusters (3 hosts and 2), each cluster behind its own link
// (bench/support/netns-grid.ts).
//  (a) 1,000 trivial tasks (a tiny private input, a tiny output each), links unlimited: tasks per second.
//      Target: gridsweep ≥ 2× GNU parallel.
//  (b) 200 tasks in 4 chunks sharing a 20 MB input each (plus a 10 KB private input), links limited with
//      tc tbf: makespan. Target: gridsweep ≤ 0.5× GNU parallel (which sends the shared input with every job).
//  (c) 10,000 empty tasks (`true`, no inputs, no outputs): tasks per second and the cost per task.
//      Target (issue 13): ≥ 1,000 tasks/s.
//  (d) 10,000 tasks writing a 100-byte output each, every output verified at the origin: tasks per second.
//      Target (issue 13): ≥ 500 tasks/s.
// In (c) and (d) GNU parallel runs the first GRIDSWEEP_BENCH_PARALLEL_TASKS (default 200) of the tasks only
// (it manages a few per second here): the comparison is of rates.
// GNU parallel runs with --sshloginfile, --transferfile, --return and --cleanup (and --wd parallel-job-{#},
// a fresh working directory per job in the host's home directory); gridsweep with `gridsweep run
// --journal` and otherwise its defaults, in (a) and (b) once with each transport ("exec": an SSH channel
// and a shell script per command; "agent", the default: every command through the agent on one channel
// per host), in (c) and (d) with the agent only. Both tools get the same number of job slots per host.
// Times are wall-clock times of each tool's whole process, from start to exit; every output is checked
// after every run, and gridsweep's own count of tasks verified.
// For gridsweep each run also gives the CPU time (user + system) of its own process, the controller's
// cost, per task (issue 28's target: ≤ 150 µs in (d)): support/controller-cpu.ts, loaded with --import.
//
// Needs root, iproute2, openssh-server, GNU parallel and rsync (which parallel's --transferfile uses), and
// a build (`npm run build`). Environment knobs: GRIDSWEEP_BENCH_REPS (gridsweep's repetitions, default 3),
// GRIDSWEEP_BENCH_PARALLEL_REPS (GNU parallel's, default 1: it needs minutes per run), GRIDSWEEP_BENCH_RATE_MBIT
// (link rate in (b), default 200), GRIDSWEEP_BENCH_QUICK=1 (small sizes, to try the benchmark out),
// GRIDSWEEP_BENCH_TOOL_PATH (directories put first in PATH, here and on the hosts, e.g. for an rsync that
// is not installed system-wide), GRIDSWEEP_BENCH_CASES (which of a,b,c,d to run, default all).
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { median } from '../src/experiment/results.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { timed } from './support/timed-command.js';
import { controllerCpuProbe } from './support/controller-cpu-reader.js';
import { checkNetnsPrerequisites, startNetnsGrid, type NetnsGrid } from './support/netns-grid.js';
import { chunkedWorkload, emptyTasksWorkload, smallOutputWorkload, trivialWorkload, type Workload } from './support/compare-workloads.js';

const PARALLEL = '/usr/bin/parallel';
const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');

const quick = process.env['GRIDSWEEP_BENCH_QUICK'] === '1';
const reps = Number(process.env['GRIDSWEEP_BENCH_REPS'] ?? (quick ? 1 : 3));
// GNU parallel opens several SSH connections per job, so one repetition of (a) takes minutes here.
const parallelReps = Number(process.env['GRIDSWEEP_BENCH_PARALLEL_REPS'] ?? 1);
const rateMbit = Number(process.env['GRIDSWEEP_BENCH_RATE_MBIT'] ?? 200);
const toolPath = process.env['GRIDSWEEP_BENCH_TOOL_PATH'];
const parallelSubset = Number(process.env['GRIDSWEEP_BENCH_PARALLEL_TASKS'] ?? (quick ? 50 : 200));
const cases = new Set((process.env['GRIDSWEEP_BENCH_CASES'] ?? 'a,b,c,d').split(','));
const env = { ...process.env, ...(toolPath ? { PATH: `${toolPath}:${process.env['PATH'] ?? ''}` } : {}) };

interface Side {
  readonly label: string;
  readonly times: number[];
  readonly peaksMb: number[];
  /** gridsweep: CPU seconds (user + system) of its own process per run, the controller's cost. */
  readonly controllerCpuS: number[];
  /** Why this side was not measured (or a run failed). */
  failure?: string;
}

function tailOf(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ').slice(-600);
}

async function runGridsweep(w: Workload, gridPath: string, side: Side): Promise<void> {
  w.clearOutputs();
  const journal = join(w.dir, 'journal.jsonl');
  rmSync(journal, { force: true });
  const cpu = controllerCpuProbe();
  const r = await timed([process.execPath, ...cpu.nodeArgs, CLI, 'run', w.sweepPath, '--grid', gridPath, '--journal', journal], w.dir, { ...env, ...cpu.env });
  const controllerCpuS = cpu.read();
  cpu.remove();
  const verified = Number(/tasks: (\d+) done and verified/.exec(r.stdout)?.[1]);
  const wrong = r.code !== 0 ? `exit ${r.code}: ${tailOf(r.stderr || r.stdout)}` : verified !== w.taskCount ? `${verified} of ${w.taskCount} tasks verified` : w.checkOutputs();
  if (wrong !== undefined) {
    side.failure = `run failed: ${wrong}`;
    return;
  }
  side.times.push(r.seconds);
  if (r.peakMb !== undefined) side.peaksMb.push(r.peakMb);
  if (controllerCpuS !== undefined) side.controllerCpuS.push(controllerCpuS);
  const makespan = /makespan: ([\d.]+) s/.exec(r.stdout)?.[1];
  const sends = /inputs sent: (.*)/.exec(r.stdout)?.[1];
  const ctl = controllerCpuS !== undefined ? `; controller CPU ${((controllerCpuS / w.taskCount) * 1e6).toFixed(0)} µs/task` : '';
  console.log(`  ${side.label.padEnd(18)} ${r.seconds.toFixed(2)} s wall (its own makespan ${makespan ?? '?'} s; inputs sent: ${sends ?? '?'}${ctl})`);
}

async function runParallel(w: Workload, grid: NetnsGrid, loginFile: string, side: Side): Promise<void> {
  w.clearOutputs();
  // A working directory per job ({#} is the job number). Not `--wd ...`: with 2 job slots on a host, one
  // job's --cleanup removes the emptied .parallel/tmp while the other job creates its directory in it.
  const argv = [PARALLEL, '--ssh', `ssh -F ${grid.sshConfig}`, '--sshloginfile', loginFile, '--wd', 'parallel-job-{#}', '-a', w.parallelArgFile, ...w.parallelArgs];
  const r = await timed(argv, w.dir, env);
  const wrong = r.code === 0 ? w.checkOutputs() : `exit ${r.code}: ${tailOf(r.stderr || r.stdout)}`;
  if (wrong !== undefined) {
    side.failure = `run failed: ${wrong}`;
    return;
  }
  side.times.push(r.seconds);
  if (r.peakMb !== undefined) side.peaksMb.push(r.peakMb);
  console.log(`  ${side.label.padEnd(18)} ${r.seconds.toFixed(2)} s wall`);
}

function missingForParallel(): string | undefined {
  if (!existsSync(PARALLEL)) return `${PARALLEL} is missing (Debian package parallel)`;
  const dirs = (env.PATH ?? '').split(':');
  if (!dirs.some((d) => d && existsSync(join(d, 'rsync')))) return 'rsync is missing (GNU parallel runs rsync for --transferfile/--return; Debian package rsync)';
  return undefined;
}

function missingForGridsweep(): string | undefined {
  if (!existsSync(CLI)) return `${CLI} is missing (run npm run build first)`;
  return undefined;
}

function summary(side: Side, unit: 'rate' | 'makespan', tasks: number, slots: number): { line: string; value?: number } {
  if (side.failure !== undefined || side.times.length === 0) return { line: `  ${side.label}: not measured — ${side.failure ?? 'no run'}` };
  const t = median(side.times);
  const peak = side.peaksMb.length > 0 ? `, peak RSS ${Math.max(...side.peaksMb).toFixed(0)} MB` : '';
  if (unit === 'rate') {
    const rate = tasks / t;
    // Per task: the whole run's wall time over the tasks, and the time each held a slot for (tasks do nothing).
    // The controller's own CPU (user + system of the gridsweep process) per task: issue 28's target is ≤ 150 µs.
    const ctl = side.controllerCpuS.length > 0 ? `, controller CPU ${((median(side.controllerCpuS) / tasks) * 1e6).toFixed(0)} µs per task (issue 28: ≤ 150)` : '';
    const perTask = `${((t / tasks) * 1e6).toFixed(0)} µs wall per task, ${((t * slots) / tasks * 1e6).toFixed(0)} µs of a slot per task${ctl}`;
    return { line: `  ${side.label}: ${rate.toFixed(1)} tasks/s (median of ${side.times.length}: ${t.toFixed(2)} s for ${tasks} tasks; ${perTask}${peak})`, value: rate };
  }
  return { line: `  ${side.label}: makespan ${t.toFixed(2)} s (median of ${side.times.length}${peak})`, value: t };
}

interface Comparison {
  readonly title: string;
  /** The workload gridsweep runs; GNU parallel runs `parallelWorkload` if given (a subset, for rates), else the same. */
  readonly w: Workload;
  readonly parallelWorkload?: Workload;
  readonly slotsPerHost: number;
  readonly unit: 'rate' | 'makespan';
  readonly transports: readonly ('exec' | 'agent')[];
  readonly target: (gridsweep: number, parallel: number) => string;
}

async function compare(grid: NetnsGrid, c: Comparison): Promise<void> {
  console.log(`\n${c.title}`);
  const { w, slotsPerHost } = c;
  const pw = c.parallelWorkload ?? w;
  const loginFile = join(pw.dir, 'sshlogins');
  writeFileSync(loginFile, `${grid.clusters.flatMap((cl) => cl.hosts.map((h) => `${slotsPerHost}/${h.name}`)).join('\n')}\n`);
  // gridsweep with each transport: an SSH channel per command (exec), or the agent on one channel per host.
  const ours = c.transports.map((transport) => {
    const gridPath = join(w.dir, `grid-${transport}.json`);
    writeFileSync(gridPath, grid.realGridJson(w.dir, { keepalive: { intervalS: 5, countMax: 3 }, transport }, slotsPerHost));
    const side: Side = { label: `gridsweep (${transport})`, times: [], peaksMb: [], controllerCpuS: [] };
    return { gridPath, side };
  });
  const gp: Side = { label: 'GNU parallel', times: [], peaksMb: [], controllerCpuS: [] };
  const gsMissing = missingForGridsweep();
  const gpMissing = missingForParallel();
  if (gsMissing) for (const o of ours) o.side.failure = gsMissing;
  if (gpMissing) gp.failure = gpMissing;
  for (let rep = 0; rep < Math.max(reps, parallelReps); rep++) {
    for (const o of ours) if (o.side.failure === undefined && rep < reps) await runGridsweep(w, o.gridPath, o.side);
    if (gp.failure === undefined && rep < parallelReps) await runParallel(pw, grid, loginFile, gp);
  }
  const slots = slotsPerHost * grid.clusters.reduce((n, cl) => n + cl.hosts.length, 0);
  const b = summary(gp, c.unit, pw.taskCount, slots);
  for (const o of ours) {
    const a = summary(o.side, c.unit, w.taskCount, slots);
    console.log(a.line);
    if (a.value !== undefined && b.value !== undefined) console.log(`    ${c.target(a.value, b.value)}`);
  }
  console.log(b.line);
}

const rateRatio = (goal: string) => (g: number, p: number): string => `ratio gridsweep/parallel (tasks per second): ${(g / p).toFixed(2)}× (${goal})`;

async function main(): Promise<void> {
  const cpu = cpus();
  console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`);
  try {
    checkNetnsPrerequisites();
  } catch (err) {
    console.log(`gridsweep vs GNU parallel: not measured — ${(err as Error).message}`);
    return;
  }
  const trivialTasks = quick ? 100 : 1000;
  const manyTasks = quick ? 1000 : 10_000;
  const chunked = quick
    ? { chunks: 4, tasksPerChunk: 10, sharedBytes: 4_000_000, privateBytes: 10_000, computeS: 0.2 }
    : { chunks: 4, tasksPerChunk: 50, sharedBytes: 20_000_000, privateBytes: 10_000, computeS: 0.5 };
  console.log(
    [
      'setup: 5 hosts = 2 clusters (3 hosts and 2), each host a network namespace running OpenSSH sshd; one veth',
      `link per cluster from the origin (root namespace); repetitions: gridsweep ${reps}, GNU parallel ${parallelReps}, interleaved;`,
      'wall-clock time of each tool process. SSH key exchange curve25519-sha256 for both tools.',
    ].join('\n'),
  );
  const grid = await startNetnsGrid(
    [
      { name: 'c0', hosts: ['h00', 'h01', 'h02'] },
      { name: 'c1', hosts: ['h10', 'h11'] },
    ],
    toolPath ? { sessionPathPrefix: toolPath } : {},
  );
  const workloads: Workload[] = [];
  const made = <W extends Workload>(w: W): W => {
    workloads.push(w);
    return w;
  };
  try {
    if (cases.has('a')) {
      await compare(grid, {
        title: `(a) ${trivialTasks} trivial tasks (private input ~20 B, output ~25 B each), links unlimited, 2 slots per host`,
        w: made(trivialWorkload(trivialTasks)),
        slotsPerHost: 2,
        unit: 'rate',
        transports: ['exec', 'agent'],
        target: rateRatio('target ≥ 2×'),
      });
    }
    if (cases.has('c')) {
      await compare(grid, {
        title: `(c) ${manyTasks} empty tasks (true, no inputs, no outputs), links unlimited, 2 slots per host; GNU parallel: the first ${parallelSubset}`,
        w: made(emptyTasksWorkload(manyTasks)),
        parallelWorkload: made(emptyTasksWorkload(parallelSubset)),
        slotsPerHost: 2,
        unit: 'rate',
        transports: ['agent'],
        target: (g, p) => `${rateRatio('issue 13: ≥ 1,000 tasks/s')(g, p)}; ${g >= 1000 ? 'target met' : `target NOT met (${g.toFixed(0)} < 1,000 tasks/s)`}`,
      });
    }
    if (cases.has('d')) {
      await compare(grid, {
        title: `(d) ${manyTasks} tasks writing a 100-byte output each, links unlimited, 2 slots per host; GNU parallel: the first ${parallelSubset}`,
        w: made(smallOutputWorkload(manyTasks)),
        parallelWorkload: made(smallOutputWorkload(parallelSubset)),
        slotsPerHost: 2,
        unit: 'rate',
        transports: ['agent'],
        target: (g, p) => `${rateRatio('issue 13: ≥ 500 tasks/s')(g, p)}; ${g >= 500 ? 'target met' : `target NOT met (${g.toFixed(0)} < 500 tasks/s)`}`,
      });
    }
    if (cases.has('b')) {
      for (const c of grid.clusters) grid.setLinkLimit(c.name, { rateBitsPerS: rateMbit * 1e6 });
      const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
      const b = made(chunkedWorkload(chunked));
      await compare(grid, {
        title:
          `(b) ${b.taskCount} tasks in ${chunked.chunks} chunks sharing a ${mb(chunked.sharedBytes)} input each (+ ${chunked.privateBytes / 1000} KB private), ` +
          `${chunked.computeS} s compute each, links limited to ${rateMbit} Mbit/s each way (tc tbf), 1 slot per host`,
        w: b,
        slotsPerHost: 1,
        unit: 'makespan',
        transports: ['exec', 'agent'],
        target: (g, p) => `ratio gridsweep/parallel (makespan): ${(g / p).toFixed(2)}× (target ≤ 0.5×)`,
      });
    }
  } finally {
    for (const w of workloads) w.remove();
    await grid.stop();
  }
  console.log(`\npeak memory of this benchmark process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
