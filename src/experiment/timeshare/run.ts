// Runs a time-sharing experiment: every workload × offered load × seed × strategy configuration × MPL ×
// slice, one simulation each (src/batch/timeshare), then writes results.json and results.csv (one row per
// run), summary.md (means over seeds, as a Markdown table) and the plots (plots.ts). Runs go one after
// another in this thread, in that nesting order; the files hold no timings, so the same spec gives the
// same bytes.
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { simulateTimeshare } from '../../batch/timeshare/engine.js';
import { rigidJob, type ParallelJob } from '../../batch/timeshare/job-structure.js';
import { summarizeTimeshare } from '../../batch/timeshare/metrics.js';
import { getTimeshareStrategy } from '../../batch/timeshare/registry.js';
import { generateStructuredWorkload } from '../../batch/timeshare/workload-generator.js';
import { SwfWorkload } from '../../batch/swf/workload.js';
import { generateWorkload } from '../../batch/workload-generator.js';
import { escapePointerToken } from '../../sweep/json-source.js';
import { writeFileAtomicSync } from '../../util/atomic-write.js';
import { InputError } from '../../util/diagnostics.js';
import { wrongKind } from '../../formats/file-kind.js';
import { timesharePlots } from './plots.js';
import type { LoadedTimeshareExperiment, LoadedTimeshareStrategy } from './spec.js';
import { groupOverSeeds, type TimeshareGroup, type TimeshareRow } from './rows.js';

export { groupOverSeeds, PROFILE_PARTS, type ProfileShares, type TimeshareGroup, type TimeshareRow } from './rows.js';

export interface TimeshareExperimentResult {
  readonly rows: readonly TimeshareRow[];
  readonly written: readonly string[];
}

interface WorkloadInstance {
  readonly workload: string;
  readonly load: number | null;
  readonly seed: number | null;
  readonly jobs: readonly ParallelJob[];
}

function swfJobs(loaded: LoadedTimeshareExperiment, name: string, file: string): ParallelJob[] {
  const path = isAbsolute(file) ? file : resolve(loaded.baseDir, file);
  const wrong = wrongKind(path, ['swf'], 'an SWF workload');
  if (wrong) throw new InputError([{ severity: 'error', pos: loaded.source.positionOf(`/workloads/${escapePointerToken(name)}/file`), message: `${file}: ${wrong.sentence}`, hint: 'name an SWF file (its jobs run as rigid jobs, one task per core)' }]);
  const w = new SwfWorkload(path);
  w.limitCores(loaded.spec.nodes);
  const out: ParallelJob[] = [];
  for (let j = w.next(); j !== undefined; j = w.next()) out.push(rigidJob(j));
  return out;
}

/** One run: which workload instance, configuration, MPL and slice (plain values, so it can cross to a worker). */
export interface TimeshareCell {
  readonly workload: string;
  readonly load: number | null;
  readonly seed: number | null;
  /** Index into loaded.strategies. */
  readonly strategy: number;
  readonly mpl: number | null;
  readonly slice: number | null;
}

/** Every run of an experiment, in the order they go: workload × load × seed × configuration × MPL × slice. */
export function timeshareCells(loaded: LoadedTimeshareExperiment): TimeshareCell[] {
  const out: TimeshareCell[] = [];
  for (const [name, source] of Object.entries(loaded.spec.workloads)) {
    // A generated rigid workload keeps its own load unless the experiment sweeps "load".
    const loads: readonly (number | null)[] = 'rigid' in source && loaded.spec.load === undefined ? [null] : loaded.loads;
    const instances: Array<[number | null, number | null]> = 'file' in source ? [[null, null]] : loads.flatMap((load) => loaded.seeds.map((seed): [number | null, number] => [load, seed]));
    for (const [load, seed] of instances) {
      loaded.strategies.forEach((_, strategy) => {
        for (const mpl of loaded.mpls) for (const slice of loaded.slices) out.push({ workload: name, load, seed, strategy, mpl, slice });
      });
    }
  }
  return out;
}

export function runCount(loaded: LoadedTimeshareExperiment): number {
  return timeshareCells(loaded).length;
}

/** Builds the workload instance of a cell, keeping the last one (the cells of an instance come together). */
export class WorkloadInstances {
  private last: WorkloadInstance | undefined;
  constructor(private readonly loaded: LoadedTimeshareExperiment) {}

  of(cell: TimeshareCell): WorkloadInstance {
    const l = this.last;
    if (l !== undefined && l.workload === cell.workload && l.load === cell.load && l.seed === cell.seed) return l;
    const source = this.loaded.spec.workloads[cell.workload]!;
    const jobs =
      'file' in source
        ? swfJobs(this.loaded, cell.workload, source.file)
        : 'rigid' in source
          ? [...generateWorkload({ ...source.rigid, ...(cell.load === null ? {} : { load: cell.load }) }, cell.seed!)].map(rigidJob)
          : generateStructuredWorkload({ ...source.generator, seed: cell.seed!, nodes: this.loaded.spec.nodes, load: cell.load! });
    this.last = { workload: cell.workload, load: cell.load, seed: cell.seed, jobs };
    return this.last;
  }
}

/** One run of the experiment. */
export function runTimeshareCell(loaded: LoadedTimeshareExperiment, cell: TimeshareCell, instances: WorkloadInstances): TimeshareRow {
  return runCell(loaded, instances.of(cell), loaded.strategies[cell.strategy]!, cell.mpl, cell.slice);
}

function runCell(loaded: LoadedTimeshareExperiment, w: WorkloadInstance, s: LoadedTimeshareStrategy, mpl: number | null, slice: number | null): TimeshareRow {
  const values = { ...s.values, ...(mpl === null ? {} : { mpl }), ...(slice === null ? {} : { slice }) };
  const config = getTimeshareStrategy(s.strategy).configure(values);
  const summary = summarizeTimeshare(simulateTimeshare(w.jobs, loaded.spec.nodes, config));
  const p = summary.profile;
  const total = p.computeS + p.spinS + p.switchS + p.interruptS + p.idleS;
  const share = (x: number) => (total === 0 ? 0 : x / total);
  return {
    workload: w.workload,
    load: w.load,
    seed: w.seed,
    config: s.name,
    strategy: s.strategy,
    mpl: config.mpl,
    sliceS: config.sliceS,
    jobs: summary.jobs,
    makespanS: summary.makespanS,
    meanResponseS: summary.meanResponseS,
    meanExecutionS: summary.meanExecutionS,
    meanWaitS: summary.meanWaitS,
    meanPace: summary.perJob.length === 0 ? 1 : summary.perJob.reduce((a, j) => a + j.pace, 0) / summary.perJob.length,
    profile: { compute: share(p.computeS), spin: share(p.spinS), switch: share(p.switchS), interrupt: share(p.interruptS), idle: share(p.idleS) },
    lossOfCpu: summary.lossOfCpu,
    lossOfCapacity: summary.lossOfCapacity,
    schedulingSkewnessS: summary.schedulingSkewnessS,
    responseCv: summary.responseCv,
    classResponseCv: summary.classResponseCv,
    classMeanResponseS: summary.classMeanResponseS,
    events: summary.events,
    messages: summary.messages,
  };
}

/** Runs every cell in this thread, in order. */
export function runTimeshareExperiment(loaded: LoadedTimeshareExperiment, outDir: string, onRun: (row: TimeshareRow) => void = () => undefined): TimeshareExperimentResult {
  const instances = new WorkloadInstances(loaded);
  const rows = timeshareCells(loaded).map((cell) => {
    const row = runTimeshareCell(loaded, cell, instances);
    onRun(row);
    return row;
  });
  return { rows, written: writeTimeshareResults(rows, loaded, outDir) };
}

const CSV_COLUMNS = ['workload', 'load', 'seed', 'config', 'strategy', 'mpl', 'slice_s', 'jobs', 'makespan_s', 'mean_response_s', 'mean_execution_s', 'mean_wait_s', 'mean_pace', 'compute', 'spin', 'switch', 'interrupt', 'idle', 'loss_of_cpu', 'loss_of_capacity', 'scheduling_skewness_s', 'response_cv', 'class_response_cv', 'events', 'messages'] as const;

function csvCell(c: string | number | null): string {
  if (c === null) return '';
  return typeof c === 'string' && /[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c);
}

function csvRow(r: TimeshareRow): string {
  const p = r.profile;
  return [r.workload, r.load, r.seed, r.config, r.strategy, r.mpl, r.sliceS, r.jobs, r.makespanS, r.meanResponseS, r.meanExecutionS, r.meanWaitS, r.meanPace, p.compute, p.spin, p.switch, p.interrupt, p.idle, r.lossOfCpu, r.lossOfCapacity, r.schedulingSkewnessS, r.responseCv, r.classResponseCv, r.events, r.messages].map(csvCell).join(',');
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;

/** The means over seeds as a Markdown table (what docs/timesharing.md quotes). */
export function summaryMarkdown(groups: readonly TimeshareGroup[]): string {
  const head = '| workload | load | strategy | MPL | slice s | runs | mean response s | mean execution s | mean wait s | compute % | spin % | switch % | interrupt % | idle % | loss of CPU % |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const lines = groups.map((g) => {
    const p = g.profile;
    return `| ${g.workload} | ${g.load ?? '—'} | ${g.config} | ${g.mpl} | ${g.sliceS} | ${g.runs} | ${g.meanResponseS.toFixed(3)} | ${g.meanExecutionS.toFixed(3)} | ${g.meanWaitS.toFixed(3)} | ${pct(p.compute)} | ${pct(p.spin)} | ${pct(p.switch)} | ${pct(p.interrupt)} | ${pct(p.idle)} | ${pct(g.lossOfCpu)} |`;
  });
  return [head, sep, ...lines].join('\n') + '\n';
}

/** Writes results.json, results.csv, summary.md and the plots; returns their paths. */
export function writeTimeshareResults(rows: readonly TimeshareRow[], loaded: LoadedTimeshareExperiment, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const groups = groupOverSeeds(rows);
  const files: Array<[string, string]> = [
    ['results.json', JSON.stringify({ timeshare: 1, name: loaded.spec.name ?? null, nodes: loaded.spec.nodes, rows }, null, 2) + '\n'],
    ['results.csv', [CSV_COLUMNS.join(','), ...rows.map(csvRow)].join('\n') + '\n'],
    ['summary.md', summaryMarkdown(groups)],
    ...timesharePlots(groups, loaded.x),
  ];
  return files.map(([name, content]) => {
    const path = join(outDir, name);
    writeFileAtomicSync(path, content);
    return path;
  });
}
