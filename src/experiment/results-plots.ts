// Charts from an experiment's results.json: makespan against the swept variable (median across seeds,
// one line per heuristic, plus the lower bound), or its spread across seeds as box plots.
import { readFileSync } from 'node:fs';
import { InputError, unreadableFile } from '../util/diagnostics.js';
import type { ResultRow, ResultsHeader } from './results.js';
import { median } from './results.js';
import { boxPlot, type BoxGroup } from '../plot/box-plot.js';
import { lineChart, type LineSeries } from '../plot/line-chart.js';

export interface LoadedResults {
  readonly header: ResultsHeader;
  readonly rows: readonly ResultRow[];
}

export function loadResults(path: string): LoadedResults {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the results', err, { expected: 'a results.json written by `gridsweep experiment`' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: `cannot read results: ${(err as Error).message}`, expected: 'a results.json written by `gridsweep experiment`' }]);
  }
  const r = parsed as Partial<LoadedResults>;
  if (!r || typeof r !== 'object' || !r.header || !Array.isArray(r.rows)) {
    throw new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: 'not an experiment results file', expected: '{"header": {...}, "rows": [...]}', hint: 'pass the results.json written by `gridsweep experiment`' }]);
  }
  return r as LoadedResults;
}

/** What a row can vary in besides the heuristic; the sweep is the swept variable's value. */
export type ResultDimension = 'sweep' | 'strategy' | 'grid' | 'application';

const DIMENSION_OF: Readonly<Record<ResultDimension, (r: ResultRow) => string>> = {
  sweep: (r) => String(xOf(r)),
  strategy: (r) => r.strategy,
  grid: (r) => r.grid,
  application: (r) => r.application,
};

/** The dimensions that take more than one value among `rows`. */
export function variedDimensions(rows: readonly ResultRow[]): ResultDimension[] {
  return (Object.keys(DIMENSION_OF) as ResultDimension[]).filter((d) => new Set(rows.map(DIMENSION_OF[d])).size > 1);
}

/** Series name of a row: the heuristic, plus what else varies among the rows (strategy, grid, application) except `shown` (the x axis). */
function seriesNamer(rows: readonly ResultRow[], shown: ResultDimension = 'sweep'): (r: ResultRow) => string {
  const varies = (d: ResultDimension): boolean => d !== shown && new Set(rows.map(DIMENSION_OF[d])).size > 1;
  const strategy = varies('strategy');
  const grid = varies('grid');
  const app = varies('application');
  return (r) => `${r.heuristic}${strategy ? `/${r.strategy}` : ''}${grid ? ` @${r.grid}` : ''}${app ? ` ${r.application}` : ''}`;
}

function xOf(r: ResultRow): number | string {
  return r.sweep === null ? 'all' : r.sweep;
}

function groupBy<K, V>(items: readonly V[], key: (v: V) => K): Map<K, V[]> {
  const m = new Map<K, V[]>();
  for (const v of items) {
    const k = key(v);
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

const UNIT_SUFFIXES: readonly [string, string][] = [
  ['KB', 'KB'],
  ['MB', 'MB'],
  ['Bytes', 'bytes'],
  ['Bps', 'bytes/s'],
  ['Ms', 'ms'],
  ['S', 's'],
  ['Pct', '%'],
];

/** "sharedFileSizeKB" → "shared file size (KB)"; a name without a known unit suffix is kept as it is. */
export function axisLabelOf(variable: string): string {
  for (const [suffix, unit] of UNIT_SUFFIXES) {
    if (variable.length > suffix.length && variable.endsWith(suffix) && /[a-z]/.test(variable[variable.length - suffix.length - 1]!)) {
      const words = variable.slice(0, -suffix.length).replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
      return `${words} (${unit})`;
    }
  }
  return variable;
}

const xLabelOf = (h: ResultsHeader): string => (h.sweepVariable ? axisLabelOf(h.sweepVariable) : 'run');

export function makespanLineChart(results: LoadedResults, opts: { logX?: boolean; title?: string } = {}): string {
  const { header, rows } = results;
  const name = seriesNamer(rows);
  const series: LineSeries[] = [...groupBy(rows, name).entries()].map(([series, rs]) => ({
    name: series,
    points: [...groupBy(rs, xOf).entries()].map(([x, cell]) => ({ x, y: median(cell.map((c) => c.makespanS)) })),
  }));
  series.push({
    name: 'lower bound',
    reference: true,
    points: [...groupBy(rows, xOf).entries()].map(([x, cell]) => ({ x, y: Math.max(...cell.map((c) => c.lowerBoundS)) })),
  });
  return lineChart({
    title: opts.title ?? `${header.experiment}: median makespan over ${header.seeds.length} seed(s)`,
    xLabel: xLabelOf(header),
    yLabel: 'makespan (s)',
    series,
    ...(opts.logX ? { logX: true } : {}),
  });
}

/** Makespan across seeds: one box per series for each value of `by` (default: the swept variable). */
export function makespanBoxPlot(results: LoadedResults, opts: { title?: string; by?: ResultDimension } = {}): string {
  const { header, rows } = results;
  const by = opts.by ?? 'sweep';
  const name = seriesNamer(rows, by);
  const groups: BoxGroup[] = [...groupBy(rows, DIMENSION_OF[by]).entries()].map(([x, cell]) => ({
    label: x,
    boxes: [...groupBy(cell, name).entries()].map(([series, rs]) => ({ series, values: rs.map((r) => r.makespanS) })),
  }));
  return boxPlot({
    title: opts.title ?? `${header.experiment}: makespan across ${header.seeds.length} seed(s)${by === 'sweep' ? '' : `, by ${by}`}`,
    xLabel: by === 'sweep' ? xLabelOf(header) : by,
    yLabel: 'makespan (s)',
    groups,
  });
}
