// gridsweep against GNU parallel (the tool users have), on the same SSH hosts in one run: 4 real sshd hosts
// in network namespaces, 2 clusters of 2, each cluster behind its own link (bench/support/netns-grid.ts).
//  (a) 1,000 trivial tasks (a tiny private input, a tiny output each), links unlimited: tasks per second.
//      Target: gridsweep ≥ 2× GNU parallel.
//  (b) 200 tasks in 4 chunks sharing a 20 MB input each (plus a 10 KB private input), links limited with
//      tc tbf: makespan. Target: gridsweep ≤ 0.5× GNU parallel (which sends the shared input with every job).
// GNU parallel runs with --sshloginfile, --transferfile, --return and --cleanup (and --wd parallel-job-{#},
// a fresh working directory per job in the host's home directory); gridsweep with
// `gridsweep run` and its defaults, once with each transport ("exec": an SSH channel and a shell script
// per command; "agent", the default: every command through the agent on one channel per host). Both
// tools get the same number of job slots per host. Times are wall-clock
// times of each tool's whole process, from start to exit; every output is checked after every run.
//
// Needs root, iproute2, openssh-server, GNU parallel and rsync (which parallel's --transferfile uses), and
// a build (`npm run build`). Environment knobs: GRIDSWEEP_BENCH_REPS (gridsweep's repetitions, default 3),
// GRIDSWEEP_BENCH_PARALLEL_REPS (GNU parallel's, default 1: it needs minutes per run), GRIDSWEEP_BENCH_RATE_MBIT
// (link rate in (b), default 200), GRIDSWEEP_BENCH_QUICK=1 (small sizes, to try the benchmark out),
// GRIDSWEEP_BENCH_TOOL_PATH (directories put first in PATH, here and on the hosts, e.g. for an rsync that
// is not installed system-wide).
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { timed } from './support/timed-command.js';
import { checkNetnsPrerequisites, startNetnsGrid, type NetnsGrid } from './support/netns-grid.js';
import { chunkedWorkload, trivialWorkload, type Workload } from './support/compare-workloads.js';

const PARALLEL = '/usr/bin/parallel';
const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');

const quick = process.env['GRIDSWEEP_BENCH_QUICK'] === '1';
const reps = Number(process.env['GRIDSWEEP_BENCH_REPS'] ?? (quick ? 1 : 3));
// GNU parallel opens several SSH connections per job, so one repetition of (a) takes minutes here.
const parallelReps = Number(process.env['GRIDSWEEP_BENCH_PARALLEL_REPS'] ?? 1);
const rateMbit = Number(process.env['GRIDSWEEP_BENCH_RATE_MBIT'] ?? 200);
const toolPath = process.env['GRIDSWEEP_BENCH_TOOL_PATH'];
const env = { ...process.env, ...(toolPath ? { PATH: `${toolPath}:${process.env['PATH'] ?? ''}` } : {}) };

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Side {
  readonly label: string;
  readonly times: number[];
  readonly peaksMb: number[];
  /** Why this side was not measured (or a run failed). */
  failure?: string;
}

function tailOf(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ').slice(-600);
}

async function runGridsweep(w: Workload, gridPath: string, side: Side): Promise<void> {
  w.clearOutputs();
  const r = await timed([process.execPath, CLI, 'run', w.sweepPath, '--grid', gridPath], w.dir, env);
  const wrong = r.code === 0 ? w.checkOutputs() : `exit ${r.code}: ${tailOf(r.stderr || r.stdout)}`;
  if (wrong !== undefined) {
    side.failure = `run failed: ${wrong}`;
    return;
  }
  side.times.push(r.seconds);
  if (r.peakMb !== undefined) side.peaksMb.push(r.peakMb);
  const makespan = /makespan: ([\d.]+) s/.exec(r.stdout)?.[1];
  const sends = /inputs sent: (.*)/.exec(r.stdout)?.[1];
  console.log(`  ${side.label.padEnd(18)} ${r.seconds.toFixed(2)} s wall (its own makespan ${makespan ?? '?'} s; inputs sent: ${sends ?? '?'})`);
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

function summary(side: Side, unit: 'rate' | 'makespan', tasks: number): { line: string; value?: number } {
  if (side.failure !== undefined || side.times.length === 0) return { line: `  ${side.label}: not measured — ${side.failure ?? 'no run'}` };
  const t = median(side.times);
  const peak = side.peaksMb.length > 0 ? `, peak RSS ${Math.max(...side.peaksMb).toFixed(0)} MB` : '';
  if (unit === 'rate') {
    const rate = tasks / t;
    return { line: `  ${side.label}: ${rate.toFixed(1)} tasks/s (median of ${side.times.length}: ${t.toFixed(2)} s for ${tasks} tasks${peak})`, value: rate };
  }
  return { line: `  ${side.label}: makespan ${t.toFixed(2)} s (median of ${side.times.length}${peak})`, value: t };
}

async function compare(
  title: string,
  w: Workload,
  grid: NetnsGrid,
  slotsPerHost: number,
  unit: 'rate' | 'makespan',
  target: (gridsweep: number, parallel: number) => { ratio: number; text: string },
): Promise<void> {
  console.log(`\n${title}`);
  const loginFile = join(w.dir, 'sshlogins');
  writeFileSync(loginFile, `${grid.clusters.flatMap((c) => c.hosts.map((h) => `${slotsPerHost}/${h.name}`)).join('\n')}\n`);
  // gridsweep with each transport: an SSH channel per command (exec), or the agent on one channel per host.
  const ours = (['exec', 'agent'] as const).map((transport) => {
    const gridPath = join(w.dir, `grid-${transport}.json`);
    writeFileSync(gridPath, grid.realGridJson(w.dir, { keepalive: { intervalS: 5, countMax: 3 }, transport }, slotsPerHost));
    const side: Side = { label: `gridsweep (${transport})`, times: [], peaksMb: [] };
    return { gridPath, side };
  });
  const gp: Side = { label: 'GNU parallel', times: [], peaksMb: [] };
  const gsMissing = missingForGridsweep();
  const gpMissing = missingForParallel();
  if (gsMissing) for (const o of ours) o.side.failure = gsMissing;
  if (gpMissing) gp.failure = gpMissing;
  for (let rep = 0; rep < Math.max(reps, parallelReps); rep++) {
    for (const o of ours) if (o.side.failure === undefined && rep < reps) await runGridsweep(w, o.gridPath, o.side);
    if (gp.failure === undefined && rep < parallelReps) await runParallel(w, grid, loginFile, gp);
  }
  const b = summary(gp, unit, w.taskCount);
  for (const o of ours) {
    const a = summary(o.side, unit, w.taskCount);
    console.log(a.line);
    if (a.value !== undefined && b.value !== undefined) console.log(`    ${target(a.value, b.value).text}`);
  }
  console.log(b.line);
}

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
  const chunked = quick
    ? { chunks: 4, tasksPerChunk: 10, sharedBytes: 4_000_000, privateBytes: 10_000, computeS: 0.2 }
    : { chunks: 4, tasksPerChunk: 50, sharedBytes: 20_000_000, privateBytes: 10_000, computeS: 0.5 };
  const slotsA = 2;
  const slotsB = 1;
  console.log(
    [
      'setup: 4 hosts = 2 clusters × 2 hosts, each a network namespace running OpenSSH sshd; one veth link per',
      `cluster from the origin (root namespace); repetitions: gridsweep ${reps}, GNU parallel ${parallelReps}, interleaved;`,
      'wall-clock time of each tool process. SSH key exchange curve25519-sha256 for both tools.',
    ].join('\n'),
  );
  const grid = await startNetnsGrid(
    [
      { name: 'c0', hosts: ['h00', 'h01'] },
      { name: 'c1', hosts: ['h10', 'h11'] },
    ],
    toolPath ? { sessionPathPrefix: toolPath } : {},
  );
  const workloads: Workload[] = [];
  try {
    const a = trivialWorkload(trivialTasks);
    workloads.push(a);
    await compare(
      `(a) ${trivialTasks} trivial tasks (private input ~20 B, output ~25 B each), links unlimited, ${slotsA} slots per host`,
      a,
      grid,
      slotsA,
      'rate',
      (g, p) => ({ ratio: g / p, text: `ratio gridsweep/parallel (tasks per second): ${(g / p).toFixed(2)}× (target ≥ 2×)` }),
    );
    a.remove();

    for (const c of grid.clusters) grid.setLinkLimit(c.name, { rateBitsPerS: rateMbit * 1e6 });
    const b = chunkedWorkload(chunked);
    workloads.push(b);
    const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
    await compare(
      `(b) ${b.taskCount} tasks in ${chunked.chunks} chunks sharing a ${mb(chunked.sharedBytes)} input each (+ ${chunked.privateBytes / 1000} KB private), ` +
        `${chunked.computeS} s compute each, links limited to ${rateMbit} Mbit/s each way (tc tbf), ${slotsB} slot per host`,
      b,
      grid,
      slotsB,
      'makespan',
      (g, p) => ({ ratio: g / p, text: `ratio gridsweep/parallel (makespan): ${(g / p).toFixed(2)}× (target ≤ 0.5×)` }),
    );
  } finally {
    for (const w of workloads) w.remove();
    await grid.stop();
  }
  console.log(`\npeak memory of this benchmark process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
