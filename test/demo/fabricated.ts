// Fabricated study results: result rows built from chosen makespans, so that the narrative and the report
// can be checked on outcomes the simulator does not produce (different winners, ties, absurd orders).
import type { ResultRow, ResultsHeader } from '../../src/experiment/results.js';
import type { LoadedResults } from '../../src/experiment/results-plots.js';
import { RESULTS_VERSION } from '../../src/experiment/results-version.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';

/** heuristic name → size (KB) → makespans, one per seed. */
export type Makespans = Readonly<Record<string, Readonly<Record<number, readonly number[]>>>>;

/**
 * The heuristics of the Figure 11 discussion (H0–H9 and XSufferage), with their registry codes: every
 * registered heuristic, as the demo study runs them all (src/demo/study.ts, heuristics "all").
 */
export const HEURISTIC_CODES = listHeuristics();
export const FIG11_NAMES: readonly string[] = HEURISTIC_CODES.map((h) => h.name);

export function fabricatedRows(makespans: Makespans, lowerBoundS: (sizeKB: number, seedIndex: number) => number): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const [heuristic, bySize] of Object.entries(makespans)) {
    for (const [size, values] of Object.entries(bySize)) {
      values.forEach((makespanS, i) => {
        rows.push({
          application: 'mcell',
          applicationSha256: `app-${size}-${i}`,
          grid: 'fig11',
          gridSha256: 'grid',
          heuristic,
          strategy: 'default',
          sweep: Number(size),
          seed: 1999 + i,
          makespanS,
          lowerBoundS: lowerBoundS(Number(size), i),
          workBoundS: lowerBoundS(Number(size), i),
          lowerBoundBinding: 'cpu',
          utilization: 0.5,
          bytesMoved: 0,
          planCalls: 1,
          planCpuMs: 1,
          wallMs: 1,
          finished: true,
          worksDone: 400,
          worksTotal: 400,
          failures: 0,
          reexecutions: 0,
          key: `${heuristic}-${size}-${i}`,
        });
      });
    }
  }
  return rows;
}

export function fabricatedResults(rows: ResultRow[]): LoadedResults {
  const heuristics = [...new Set(rows.map((r) => r.heuristic))];
  const seeds = [...new Set(rows.map((r) => r.seed))];
  const header: ResultsHeader = {
    gridsweepVersion: '0.0.0-test',
    resultsVersion: RESULTS_VERSION,
    experiment: 'fabricated',
    spec: { path: 'study.json', sha256: 'f'.repeat(64) },
    sweepVariable: 'sharedFileSizeKB',
    seeds,
    heuristics,
    strategies: { default: {} },
    inputs: [{ kind: 'grid', name: 'fig11', sweep: null, seed: null, sha256: 'a'.repeat(64) }],
  };
  return { header, rows };
}

/** The Figure 11 heuristics at 100 and 9600 KB, three seeds each: `large` gives the 9600 KB medians. */
export function study(large: Readonly<Record<string, number>>, small = 3500): Makespans {
  const out: Record<string, Record<number, number[]>> = {};
  for (const name of FIG11_NAMES) {
    const m = large[name];
    if (m === undefined) throw new Error(`no makespan for ${name}`);
    out[name] = { 100: [small - 10, small, small + 10], 9600: [m - 50, m, m + 50] };
  }
  return out;
}

/** The ordering Berman et al. 1999, §8 reports: H0 and H3 far behind, H4/H9 (and XS) best, H1 in between, randomized = plain. */
export const PAPER_LIKE: Record<string, number> = {
  workqueue: 11000,
  minmin: 6000,
  maxmin: 9000,
  sufferage: 8500,
  'extended-sufferage': 5000,
  'randomized-minmin': 6020,
  'randomized-maxmin': 9050,
  'randomized-sufferage': 8450,
  'randomized-extended-sufferage': 5010,
  sufferage2: 5050,
  xsufferage: 5100,
};

/** An ordering the paper does not report: Min-min best, a randomized variant far from its plain version. */
export const MINMIN_WINS: Record<string, number> = {
  ...PAPER_LIKE,
  minmin: 4000,
  'randomized-minmin': 4010,
  'randomized-extended-sufferage': 8000,
};
