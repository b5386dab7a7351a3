// Runs one workload time-shared (`gridsweep trace WORKLOAD --timeshare STRATEGY`): a parallel workload
// (.pwl, structured jobs) or an SWF trace (rigid jobs: one task per core, one iteration of its run time,
// no messages), on nodes × cores single-CPU engine nodes, under a registered time-sharing strategy, with
// the optional checker; and the metrics the command prints (Zhang and Sivasubramaniam 2004, sections 2.2
// and 5.1), with the pace of progress and fairness gathered per job class.
import { readFileSync } from 'node:fs';
import { parseParallelWorkload } from '../formats/parallel-workload.js';
import { clusterSizeProblem } from '../batch/cluster-limits.js';
import { InputError, unreadableFile } from '../util/diagnostics.js';
import { ClusterSizeError } from './run-trace.js';
import { SwfWorkload } from '../batch/swf/workload.js';
import { TimeshareChecker } from '../batch/timeshare/checker.js';
import { simulateTimeshare } from '../batch/timeshare/engine.js';
import { rigidJob, type ParallelJob } from '../batch/timeshare/job-structure.js';
import { coefficientOfVariation, summarizeTimeshare, type TimeshareSummary } from '../batch/timeshare/metrics.js';
import type { ExecutionProfile } from '../batch/timeshare/node.js';
import { getTimeshareStrategy } from '../batch/timeshare/registry.js';

export type TimeshareWorkloadFormat = 'parallel' | 'swf';

export interface TimeshareTraceOptions {
  readonly workloadPath: string;
  readonly format: TimeshareWorkloadFormat;
  /** Default: the SWF header's MaxNodes; required for a parallel workload. */
  readonly nodes?: number;
  /** Default: the SWF header's MaxProcs / MaxNodes, else 1. */
  readonly coresPerNode?: number;
  readonly strategy: string;
  /** Parameter values given (by the registry's names); the rest take the strategy's defaults. */
  readonly parameters: Readonly<Record<string, number>>;
  readonly check?: boolean;
}

/** Pace of progress (CPU time a job's tasks received over its execution): its spread, over all jobs and per class. */
export interface PaceSummary {
  readonly mean: number;
  readonly cv: number;
  readonly classMean: Record<string, number>;
}

export interface TimeshareTrace {
  readonly format: TimeshareWorkloadFormat;
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly strategy: string;
  /** Every parameter of the strategy, defaults filled in. */
  readonly parameters: Record<string, number>;
  readonly jobsSkipped: number;
  readonly warnings: readonly string[];
  readonly summary: TimeshareSummary;
  readonly pace: PaceSummary;
  readonly violations: readonly string[];
}

/** The strategy's parameters with defaults filled in (throws the registry's message on a bad value). */
export function resolvedParameters(strategy: string, given: Readonly<Record<string, number>>): Record<string, number> {
  const s = getTimeshareStrategy(strategy);
  s.configure(given);
  const out: Record<string, number> = {};
  for (const p of s.parameters) out[p.name] = given[p.name] ?? p.defaultValue;
  return out;
}

export function runTimeshareTrace(o: TimeshareTraceOptions): TimeshareTrace {
  const strategy = getTimeshareStrategy(o.strategy);
  const config = strategy.configure(o.parameters);
  const parameters = resolvedParameters(o.strategy, o.parameters);
  const { jobs, nodes, coresPerNode, skipped, warnings } = o.format === 'parallel' ? readParallel(o) : readSwf(o);
  const cpus = nodes * coresPerNode;
  const checker = o.check === true ? new TimeshareChecker(cpus, config.mpl, config.mode === 'gang', config.alternate) : undefined;
  const run = simulateTimeshare(jobs, cpus, config, checker);
  const violations = checker?.finish(run) ?? [];
  const summary = summarizeTimeshare(run);
  return { format: o.format, nodes, coresPerNode, strategy: strategy.name, parameters, jobsSkipped: skipped, warnings, summary, pace: paceSummary(summary, run.jobs.map((j) => j.jobClass ?? 'unclassed')), violations };
}

function paceSummary(s: TimeshareSummary, classes: readonly string[]): PaceSummary {
  const paces = s.perJob.map((j) => j.pace);
  const byClass = new Map<string, number[]>();
  paces.forEach((p, i) => {
    const list = byClass.get(classes[i]!) ?? [];
    list.push(p);
    byClass.set(classes[i]!, list);
  });
  const classMean: Record<string, number> = {};
  for (const [c, list] of [...byClass].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) classMean[c] = list.reduce((a, b) => a + b, 0) / list.length;
  return { mean: paces.length === 0 ? 0 : paces.reduce((a, b) => a + b, 0) / paces.length, cv: coefficientOfVariation(paces), classMean };
}

interface Loaded {
  readonly jobs: ParallelJob[];
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly skipped: number;
  readonly warnings: string[];
}

function readParallel(o: TimeshareTraceOptions): Loaded {
  let text: string;
  try {
    text = readFileSync(o.workloadPath, 'utf8');
  } catch (err) {
    throw unreadableFile(o.workloadPath, 'the parallel workload', err);
  }
  const w = parseParallelWorkload(text, o.workloadPath);
  if (o.nodes === undefined) throw new ClusterSizeError(`${o.workloadPath}: a parallel workload does not say how big its cluster is; give --nodes (and --cores-per-node, default 1)`);
  const coresPerNode = o.coresPerNode ?? 1;
  checkSize(o.nodes, coresPerNode);
  const cpus = o.nodes * coresPerNode;
  const tooBig = w.jobs.flatMap((j, i) => (j.tasks > cpus ? [i] : []));
  if (tooBig.length > 0) {
    throw new InputError(
      tooBig.slice(0, 20).map((i) => ({
        severity: 'error' as const,
        pos: { file: o.workloadPath, line: w.places[i]!.line, column: w.places[i]!.tasksColumn },
        message: `job ${w.jobs[i]!.id} has ${w.jobs[i]!.tasks} tasks, one per CPU, but the cluster has ${cpus} CPUs (${o.nodes} nodes × ${coresPerNode} cores)`,
        found: `'${w.jobs[i]!.tasks}'`,
        expected: `${cpus} tasks or fewer`,
        hint: `give --nodes ${Math.ceil(w.jobs[i]!.tasks / coresPerNode)} or more, or fewer tasks`,
      })),
    );
  }
  return { jobs: w.jobs, nodes: o.nodes, coresPerNode, skipped: 0, warnings: [] };
}

function readSwf(o: TimeshareTraceOptions): Loaded {
  const workload = new SwfWorkload(o.workloadPath);
  try {
    const header = workload.header();
    const nodes = o.nodes ?? header.maxNodes;
    const headerNodeCores = header.maxNodes !== undefined && header.maxProcs !== undefined && header.maxNodes >= 1 ? Math.floor(header.maxProcs / header.maxNodes) : undefined;
    const coresPerNode = o.coresPerNode ?? headerNodeCores ?? 1;
    if (nodes === undefined || !(nodes >= 1) || !(coresPerNode >= 1)) throw new ClusterSizeError(`${o.workloadPath}: the header gives no cluster size (MaxNodes, MaxProcs); give --nodes and --cores-per-node`);
    checkSize(nodes, coresPerNode);
    workload.limitCores(nodes * coresPerNode);
    const jobs: ParallelJob[] = [];
    for (let j = workload.next(); j !== undefined; j = workload.next()) jobs.push(rigidJob(j));
    return { jobs, nodes, coresPerNode, skipped: workload.skippedTotal, warnings: workload.warnings() };
  } finally {
    workload.close();
  }
}

/** Refuses a cluster larger than a time-shared run simulates (before its CPUs are made). */
function checkSize(nodes: number, coresPerNode: number): void {
  const tooLarge = clusterSizeProblem(nodes, coresPerNode, true);
  if (tooLarge !== undefined) throw new ClusterSizeError(`${tooLarge}; give --nodes and --cores-per-node within it`);
}

/** The execution profile as shares of its total (each in [0, 1]; all 0 for an empty profile). */
export function profileShares(p: ExecutionProfile): ExecutionProfile {
  const total = p.computeS + p.spinS + p.switchS + p.interruptS + p.idleS;
  const f = (v: number): number => (total === 0 ? 0 : v / total);
  return { computeS: f(p.computeS), spinS: f(p.spinS), switchS: f(p.switchS), interruptS: f(p.interruptS), idleS: f(p.idleS) };
}
