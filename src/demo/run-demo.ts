// The demo from start to finish: save the study as an experiment specification in the output folder, run
// it with the experiment tool (worker threads, result cache in OUT/runs), read its results.json back, work
// out the findings and write OUT/report.html atomically.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadExperimentSpec } from '../experiment/spec.js';
import { matrixSize, runExperiment, type ExperimentProgress, type ExperimentSummary, type RunnerRef } from '../experiment/run-experiment.js';
import { ResultStore } from '../experiment/store.js';
import { loadResults, type LoadedResults } from '../experiment/results-plots.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../scheduler/options.js';
import { listHeuristics } from '../scheduler/heuristics/registry.js';
import { writeFileAtomic, writeFileAtomicSync } from '../util/atomic-write.js';
import { studyFindings, type StudyFindings } from './narrative.js';
import { renderStudyReport, type BoundBreakdown } from './report-html.js';
import { fig11Setting } from './setting.js';
import { demoExperimentSpec, studySeeds, type StudySize } from './study.js';
import { summarizeStudy, type StudySummary } from './summary.js';

export interface DemoOptions {
  readonly outDir: string;
  readonly jobs: number;
  readonly study: StudySize;
  /** Shown in the report as the way to run the study again. */
  readonly command?: string;
  readonly onStart?: (info: { runs: number; specPath: string }) => void;
  readonly onProgress?: (p: ExperimentProgress) => void;
  /** Default: the simulator. */
  readonly runner?: RunnerRef;
}

export interface DemoOutcome {
  readonly experiment: ExperimentSummary;
  readonly results: LoadedResults;
  readonly summary: StudySummary;
  readonly findings: StudyFindings;
  readonly specPath: string;
  readonly reportPath: string;
}

/** The largest of each lower bound component per size across seeds, read from the stored runs. */
function boundsBySize(results: LoadedResults, runsDir: string): Map<number, BoundBreakdown> {
  const store = new ResultStore(runsDir);
  const bySize = new Map<number, BoundBreakdown[]>();
  const seen = new Set<string>();
  for (const row of results.rows) {
    const size = Number(row.sweep);
    const id = `${size}/${row.seed}`;
    if (seen.has(id)) continue;
    const bound = store.read(row.key)?.bound;
    if (!bound) continue;
    seen.add(id);
    bySize.set(size, [...(bySize.get(size) ?? []), bound]);
  }
  return new Map(
    [...bySize.entries()].map(([size, bs]) => [
      size,
      { cpuBoundS: Math.max(...bs.map((b) => b.cpuBoundS)), linkBoundS: Math.max(...bs.map((b) => b.linkBoundS)), taskBoundS: Math.max(...bs.map((b) => b.taskBoundS)) },
    ]),
  );
}

/** Every run of the study failed: there is nothing to report. */
export class DemoFailedError extends Error {
  constructor(readonly failures: ExperimentSummary['failures']) {
    super(`all ${failures.length} runs of the study failed; first: ${failures[0]?.run ?? '?'}: ${failures[0]?.message ?? '?'}`);
    this.name = 'DemoFailedError';
  }
}

export async function runDemo(o: DemoOptions): Promise<DemoOutcome> {
  mkdirSync(o.outDir, { recursive: true });
  const specPath = join(o.outDir, 'study.json');
  writeFileAtomicSync(specPath, `${JSON.stringify(demoExperimentSpec(o.study, o.outDir), null, 2)}\n`);
  const heuristics = listHeuristics();
  const loaded = loadExperimentSpec(specPath, heuristics);
  o.onStart?.({ runs: matrixSize(loaded), specPath });

  const experiment = await runExperiment(loaded, {
    outDir: o.outDir,
    jobs: o.jobs,
    charts: false,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.runner ? { runner: o.runner } : {}),
  });
  const results = loadResults(experiment.jsonPath);
  if (results.rows.length === 0) throw new DemoFailedError(experiment.failures);
  const summary = summarizeStudy(results.rows, heuristics);
  const findings = studyFindings(summary);
  const html = renderStudyReport({
    results,
    summary,
    findings,
    heuristics,
    schedulerOptions: Object.fromEntries(Object.entries(DEFAULT_SCHEDULER_OPTIONS).filter(([k]) => k !== 'heuristic')),
    setting: fig11Setting(o.study.sizesKB, studySeeds(o.study.seedCount)),
    bounds: boundsBySize(results, experiment.runsDir),
    run: {
      simulated: experiment.simulated,
      cached: experiment.cached,
      failed: experiment.failures.length,
      elapsedMs: experiment.elapsedMs,
      jobs: o.jobs,
      command: o.command ?? `gridsweep experiment ${specPath} --out ${o.outDir}`,
    },
  });
  const reportPath = join(o.outDir, 'report.html');
  await writeFileAtomic(reportPath, html);
  return { experiment, results, summary, findings, specPath, reportPath };
}
