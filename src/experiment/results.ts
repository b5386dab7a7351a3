// The experiment's outputs: results.csv and results.json, written row by row (never held in memory) to
// temporary names and renamed when complete; and the summary table (median makespan across seeds).
import { moveIntoPlace, temporaryName } from '../util/atomic-write.js';
import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { meanAndSd } from '../util/stats.js';
import type { SweepValue } from './spec.js';

export interface ResultRow {
  readonly application: string;
  readonly applicationSha256: string;
  readonly grid: string;
  readonly gridSha256: string;
  readonly heuristic: string;
  readonly strategy: string;
  readonly sweep: SweepValue | null;
  readonly seed: number;
  readonly makespanS: number;
  readonly lowerBoundS: number;
  /** The bound from the work alone (the larger of the CPU and longest-task bounds; lower-bound.ts). */
  readonly workBoundS: number;
  /** Which bound gives lowerBoundS: cpu, link, task or startup. */
  readonly lowerBoundBinding: string;
  readonly utilization: number;
  readonly bytesMoved: number;
  readonly planCalls: number;
  readonly planCpuMs: number;
  readonly wallMs: number;
  readonly finished: boolean;
  readonly worksDone: number;
  readonly worksTotal: number;
  readonly failures: number;
  readonly reexecutions: number;
  readonly key: string;
}

/** Column order of results.csv; `sweep` is headed by the swept variable's name. */
export const RESULT_COLUMNS: readonly (keyof ResultRow)[] = [
  'application',
  'grid',
  'heuristic',
  'strategy',
  'sweep',
  'seed',
  'makespanS',
  'lowerBoundS',
  'workBoundS',
  'lowerBoundBinding',
  'utilization',
  'bytesMoved',
  'planCalls',
  'planCpuMs',
  'wallMs',
  'finished',
  'worksDone',
  'worksTotal',
  'failures',
  'reexecutions',
  'applicationSha256',
  'gridSha256',
  'key',
];

export interface ResultsHeader {
  readonly gridsweepVersion: string;
  /** RESULTS_VERSION (results-version.ts): what the cached runs were computed with. */
  readonly resultsVersion: number;
  readonly experiment: string;
  readonly spec: { readonly path: string; readonly sha256: string };
  readonly sweepVariable: string | null;
  readonly seeds: readonly number[];
  readonly heuristics: readonly string[];
  readonly strategies: Readonly<Record<string, unknown>>;
  /** Every grid and application used, by name and swept value, with the SHA-256 of its content. */
  readonly inputs: ReadonlyArray<{ readonly kind: 'grid' | 'application'; readonly name: string; readonly sweep: SweepValue | null; readonly seed: number | null; readonly sha256: string }>;
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : String(v);
  return /[",\n#]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

class StreamFile {
  private readonly stream: WriteStream;
  private readonly tmp: string;
  private failure: Error | undefined;
  constructor(private readonly path: string) {
    this.tmp = temporaryName(path);
    this.stream = createWriteStream(this.tmp);
    this.stream.on('error', (e) => (this.failure = e));
  }
  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(text)) await new Promise<void>((r) => this.stream.once('drain', r));
  }
  async finish(): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
      if (this.failure) throw this.failure;
    } catch (err) {
      rmSync(this.tmp, { force: true });
      throw err;
    }
    moveIntoPlace(this.tmp, this.path);
  }
}

/** Writes results.csv (with a `#` header naming the version, input hashes and seeds) and results.json. */
export class ResultsWriter {
  private readonly csv: StreamFile;
  private readonly json: StreamFile;
  private rows = 0;

  private constructor(csvPath: string, jsonPath: string) {
    this.csv = new StreamFile(csvPath);
    this.json = new StreamFile(jsonPath);
  }

  static async open(csvPath: string, jsonPath: string, header: ResultsHeader): Promise<ResultsWriter> {
    const w = new ResultsWriter(csvPath, jsonPath);
    const lines = [
      `# gridsweep ${header.gridsweepVersion} (results version ${header.resultsVersion}) experiment ${header.experiment}`,
      `# spec ${header.spec.path} sha256=${header.spec.sha256}`,
      `# seeds ${header.seeds.join(' ')}`,
      ...header.inputs.map((i) => `# ${i.kind} ${i.name}${i.sweep === null ? '' : ` ${header.sweepVariable}=${i.sweep}`}${i.seed === null ? '' : ` seed=${i.seed}`} sha256=${i.sha256}`),
      RESULT_COLUMNS.map((c) => (c === 'sweep' ? (header.sweepVariable ?? 'sweep') : c)).join(','),
    ];
    await w.csv.write(`${lines.join('\n')}\n`);
    await w.json.write(`{"header":${JSON.stringify(header)},\n"rows":[`);
    return w;
  }

  async add(row: ResultRow): Promise<void> {
    await this.csv.write(`${RESULT_COLUMNS.map((c) => csvCell(row[c])).join(',')}\n`);
    await this.json.write(`${this.rows === 0 ? '\n' : ',\n'}${JSON.stringify(row)}`);
    this.rows++;
  }

  async close(): Promise<void> {
    await this.json.write('\n]}\n');
    await Promise.all([this.csv.finish(), this.json.finish()]);
  }
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Collects makespans by series (heuristic, plus strategy, grid or application when there are several) and
 * swept value, and prints medians across seeds as a table: one row per series, one column per value.
 */
export class SummaryTable {
  private readonly cells = new Map<string, Map<string, number[]>>();
  private readonly bounds = new Map<string, number>();
  private readonly columns: string[] = [];

  constructor(private readonly sweepVariable: string | null) {}

  add(series: string, sweep: SweepValue | null, makespanS: number, lowerBoundS: number): void {
    const col = sweep === null ? '' : String(sweep);
    if (!this.columns.includes(col)) this.columns.push(col);
    let row = this.cells.get(series);
    if (!row) this.cells.set(series, (row = new Map()));
    let values = row.get(col);
    if (!values) row.set(col, (values = []));
    values.push(makespanS);
    this.bounds.set(col, Math.max(this.bounds.get(col) ?? 0, lowerBoundS));
  }

  /** Median makespan of one cell, or undefined. */
  medianOf(series: string, sweep: SweepValue | null): number | undefined {
    const v = this.cells.get(series)?.get(sweep === null ? '' : String(sweep));
    return v ? median(v) : undefined;
  }

  format(): string {
    const title = `${this.sweepVariable ? `median makespan (s) by ${this.sweepVariable}` : 'median makespan (s)'}, then mean ± sd over seeds`;
    const head = ['', ...this.columns.map((c) => (c === '' ? 'makespan' : c))];
    const fmt = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(0));
    const cell = (values: readonly number[] | undefined): string => {
      if (values === undefined) return '-';
      const { mean, sd } = meanAndSd(values);
      return `${fmt(median(values))} (${fmt(mean)} ± ${fmt(sd)})`;
    };
    const body = [...this.cells.entries()].map(([series, row]) => [series, ...this.columns.map((c) => cell(row.get(c)))]);
    body.push(['lower bound', ...this.columns.map((c) => fmt(this.bounds.get(c)))]);
    const rows = [head, ...body];
    const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    return [title, line(head), ...body.map(line)].join('\n');
  }
}
