// Runs a batch experiment: every workload × machine × policy × allocator in trace mode, then writes the
// results (JSON, CSV) and AccaSim's plots — slowdown and queue size per dispatcher, as box plots — into
// the results folder, with the allocation quality per dispatcher (pairwise hops, pieces) when a machine is
// a mesh or torus. Generated workloads are written there too (workloads/NAME.swf), so a run can be redone
// with `gridsweep trace`.
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { boxPlot, type BoxGroup, type BoxSummary } from '../../plot/box-plot.js';
import { writeFileAtomicSync } from '../../util/atomic-write.js';
import { InputError } from '../../util/diagnostics.js';
import { escapePointerToken } from '../../sweep/json-source.js';
import type { DistributionSummary } from '../../batch/quantile-sketch.js';
import { runTrace, type TraceRun, type TraceRunOptions } from '../../trace/run-trace.js';
import { writeGeneratedWorkload } from '../../batch/swf/write-generated.js';
import type { LoadedBatchExperiment, WorkloadSource } from './spec.js';
import { wrongKind } from '../../formats/file-kind.js';

export interface BatchExperimentRow {
  readonly workload: string;
  readonly machine: string;
  readonly policy: string;
  readonly allocator: string;
  readonly run: TraceRun;
}

export interface BatchExperimentResult {
  readonly rows: readonly BatchExperimentRow[];
  readonly written: readonly string[];
}

function workloadPath(loaded: LoadedBatchExperiment, name: string, source: WorkloadSource, outDir: string): string {
  if ('file' in source) {
    const path = isAbsolute(source.file) ? source.file : resolve(loaded.baseDir, source.file);
    const wrong = wrongKind(path, ['swf'], 'an SWF workload');
    if (wrong) throw new InputError([{ severity: 'error', pos: loaded.source.positionOf(`/workloads/${escapePointerToken(name)}/file`), message: `${source.file}: ${wrong.sentence}`, hint: 'name an SWF file (gridsweep generate swf SPEC.json -o W.swf makes one)' }]);
    return path;
  }
  const dir = join(outDir, 'workloads');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.swf`);
  try {
    writeGeneratedWorkload(source.generator, source.seed ?? 1, path);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError([{ severity: 'error', pos: loaded.source.positionOf(`/workloads/${escapePointerToken(name)}/generator`), message: (err as Error).message, hint: 'correct this generator parameter' }]);
  }
  return path;
}

/** One trace run of a batch experiment: which workload, and what runTrace is asked. */
export interface BatchRunRequest {
  readonly workload: string;
  readonly trace: TraceRunOptions & { readonly machine: string; readonly allocator: string };
}

/**
 * Every trace run of the experiment, in its order (workload, then machine × policy × allocator); generated
 * workloads are written into outDir/workloads first.
 */
export function batchRunRequests(loaded: LoadedBatchExperiment, outDir: string): BatchRunRequest[] {
  mkdirSync(outDir, { recursive: true });
  const { spec } = loaded;
  const requests: BatchRunRequest[] = [];
  for (const [name, source] of Object.entries(spec.workloads)) {
    const path = workloadPath(loaded, name, source, outDir);
    for (const { machine, policy, allocator } of loaded.cells) {
      const onBag = machine === 'bag';
      const trace = {
        workloadPath: path,
        machine,
        policy,
        allocator,
        ...(onBag && spec.nodes !== undefined ? { nodes: spec.nodes } : {}),
        ...(spec.coresPerNode !== undefined ? { coresPerNode: spec.coresPerNode } : {}),
        ...(spec.boundedSlowdownThresholdS !== undefined ? { boundedSlowdownThresholdS: spec.boundedSlowdownThresholdS } : {}),
      };
      requests.push({ workload: name, trace });
    }
  }
  return requests;
}

export function runBatchExperiment(loaded: LoadedBatchExperiment, outDir: string, onRun: (row: BatchExperimentRow) => void = () => undefined): BatchExperimentResult {
  const rows: BatchExperimentRow[] = [];
  for (const { workload, trace } of batchRunRequests(loaded, outDir)) {
    const row = { workload, machine: trace.machine, policy: trace.policy, allocator: trace.allocator, run: runTrace(trace) };
    rows.push(row);
    onRun(row);
  }
  return { rows, written: writeBatchResults(rows, loaded, outDir) };
}

/** A box's label: policy/allocator, with the machine in front when the experiment has several. */
function dispatcherOf(rows: readonly BatchExperimentRow[]): (r: BatchExperimentRow) => string {
  const several = new Set(rows.map((r) => r.machine)).size > 1;
  return (r) => (several ? `${r.machine} ${r.policy}/${r.allocator}` : `${r.policy}/${r.allocator}`);
}

function box(d: DistributionSummary): BoxSummary {
  return { min: d.min, q1: d.p25, median: d.median, q3: d.p75, max: d.max, count: d.count, mean: d.mean, sd: d.sd };
}

/** A log axis needs values > 0: slowdowns of sub-second jobs can be below 1, so they are drawn at `floor`. */
function atLeast(s: BoxSummary, floor: number): BoxSummary {
  const f = (v: number) => Math.max(floor, v);
  return { ...s, min: f(s.min), q1: f(s.q1), median: f(s.median), q3: f(s.q3), max: f(s.max) };
}

function groupsOf(rows: readonly BatchExperimentRow[], pick: (r: TraceRun) => DistributionSummary | undefined, floor?: number): BoxGroup[] {
  const workloads = [...new Set(rows.map((r) => r.workload))];
  const dispatcher = dispatcherOf(rows);
  return workloads.map((w) => ({
    label: w,
    boxes: rows
      .filter((r) => r.workload === w && pick(r.run) !== undefined)
      .map((r) => ({ series: dispatcher(r), summary: floor === undefined ? box(pick(r.run)!) : atLeast(box(pick(r.run)!), floor) })),
  }));
}

// Columns added later come last, so that scripts reading the earlier ones by position keep working.
const CSV_COLUMNS = ['workload', 'policy', 'allocator', 'jobs', 'skipped', 'killed', 'mean_wait_s', 'median_wait_s', 'mean_slowdown', 'median_slowdown', 'mean_bounded_slowdown', 'utilization', 'loss_of_capacity', 'mean_queue_length', 'max_queue_length', 'throughput_jobs_per_hour', 'span_s', 'machine', 'mean_pairwise_hops', 'mean_pieces', 'contiguous_share', 'fragmentation'] as const;

function csvRow(r: BatchExperimentRow): string {
  const m = r.run.metrics;
  const a = m.allocation;
  const cells = [r.workload, r.policy, r.allocator, m.jobs, r.run.jobsSkipped, m.killed, m.waitS.mean, m.waitS.median, m.slowdown.mean, m.slowdown.median, m.boundedSlowdown.mean, m.utilization, m.lossOfCapacity, m.queueLength.timeMean, m.queueLength.max, m.throughputJobsPerHour, m.spanS, r.machine, a?.meanPairwiseHops.mean ?? '', a?.pieces.mean ?? '', a?.contiguousShare ?? '', a?.fragmentation ?? ''];
  return cells.map((c) => (typeof c === 'string' && /[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c))).join(',');
}

/** Writes results.json, results.csv and the box plots of `rows` into outDir; returns the paths. */
export function writeBatchResults(rows: readonly BatchExperimentRow[], loaded: LoadedBatchExperiment, outDir: string): string[] {
  const results = rows.map((r) => ({ workload: r.workload, machine: r.machine, policy: r.policy, allocator: r.allocator, nodes: r.run.nodes, coresPerNode: r.run.coresPerNode, jobsSkipped: r.run.jobsSkipped, metrics: r.run.metrics }));
  const files: Array<[string, string]> = [
    ['results.json', JSON.stringify(loaded.skipped.length === 0 ? results : { results, skipped: loaded.skipped }, null, 2) + '\n'],
    ['results.csv', [CSV_COLUMNS.join(','), ...rows.map(csvRow)].join('\n') + '\n'],
    ['slowdown.svg', boxPlot({ title: 'Job slowdown per dispatcher', xLabel: 'workload', yLabel: 'slowdown (log)', logY: true, groups: groupsOf(rows, (r) => r.metrics.slowdown, 1) })],
    ['bounded-slowdown.svg', boxPlot({ title: 'Bounded slowdown per dispatcher', xLabel: 'workload', yLabel: 'bounded slowdown (log)', logY: true, groups: groupsOf(rows, (r) => r.metrics.boundedSlowdown, 1) })],
    ['queue-size.svg', boxPlot({ title: 'Queue size at each dispatch, per dispatcher', xLabel: 'workload', yLabel: 'waiting jobs', groups: groupsOf(rows, (r) => r.metrics.queueLengthAtDispatch) })],
  ];
  if (rows.some((r) => r.run.metrics.allocation !== undefined)) {
    files.push(
      ['pairwise-hops.svg', boxPlot({ title: "Allocation quality: each multi-node job's mean pairwise hops, per dispatcher", xLabel: 'workload', yLabel: 'mean pairwise hops', groups: groupsOf(rows, (r) => r.metrics.allocation?.meanPairwiseHops) })],
      ['pieces.svg', boxPlot({ title: 'Contiguous pieces per multi-node job, per dispatcher', xLabel: 'workload', yLabel: 'pieces', groups: groupsOf(rows, (r) => r.metrics.allocation?.pieces) })],
    );
  }
  return files.map(([name, content]) => {
    const path = join(outDir, name);
    writeFileAtomicSync(path, content);
    return path;
  });
}
