// The study's results reduced to what the narrative and the report need: for each heuristic and shared
// file size, the makespans across seeds and their median; for each size, the lower bound (the largest
// across seeds, as the experiment tool's summary table gives it: every seed draws its own application).
import { median, type ResultRow } from '../experiment/results.js';

export interface HeuristicLabel {
  readonly name: string;
  /** 'H0' … 'H9' or 'XS' (registry codes); '' when unknown. */
  readonly code: string;
}

export interface StudySummary {
  /** Ascending. */
  readonly sizesKB: readonly number[];
  /** In the order the rows give them (the registry's order for a real study). */
  readonly heuristics: readonly HeuristicLabel[];
  readonly seeds: readonly number[];
  /** Runs that did not complete every task (their makespan is when the simulation stopped). */
  readonly unfinishedRuns: number;
  makespansS(heuristic: string, sizeKB: number): readonly number[];
  /** Median makespan across seeds, or NaN if there is no run. */
  medianS(heuristic: string, sizeKB: number): number;
  /** The largest lower bound across seeds (NaN if there is no run). */
  lowerBoundS(sizeKB: number): number;
  /** The largest bound from the work alone, and which bound gave lowerBoundS (the row that has it). */
  workBoundS(sizeKB: number): number;
  lowerBoundBinding(sizeKB: number): string | undefined;
}

function sizeOf(row: ResultRow): number {
  const v = typeof row.sweep === 'number' ? row.sweep : Number(row.sweep);
  if (!Number.isFinite(v)) throw new Error(`result row ${row.key} has no numeric shared file size (got ${JSON.stringify(row.sweep)})`);
  return v;
}

/** `codes` maps heuristic names to registry codes (listHeuristics()); names it lacks get ''. */
export function summarizeStudy(rows: readonly ResultRow[], codes: ReadonlyArray<{ readonly name: string; readonly code: string }>): StudySummary {
  const codeOf = new Map(codes.map((c) => [c.name, c.code]));
  const cells = new Map<string, number[]>();
  const bounds = new Map<number, number[]>();
  const workBounds = new Map<number, number[]>();
  const binding = new Map<number, { boundS: number; binding: string }>();
  const names: string[] = [];
  const sizes = new Set<number>();
  const seeds = new Set<number>();
  let unfinishedRuns = 0;
  const cellKey = (h: string, s: number): string => `${h}\u0000${s}`;
  for (const r of rows) {
    const size = sizeOf(r);
    sizes.add(size);
    seeds.add(r.seed);
    if (!names.includes(r.heuristic)) names.push(r.heuristic);
    if (!r.finished) unfinishedRuns++;
    const k = cellKey(r.heuristic, size);
    const list = cells.get(k) ?? [];
    list.push(r.makespanS);
    cells.set(k, list);
    const b = bounds.get(size) ?? [];
    b.push(r.lowerBoundS);
    bounds.set(size, b);
    workBounds.set(size, [...(workBounds.get(size) ?? []), r.workBoundS]);
    if (r.lowerBoundS > (binding.get(size)?.boundS ?? -Infinity)) binding.set(size, { boundS: r.lowerBoundS, binding: r.lowerBoundBinding });
  }
  return {
    sizesKB: [...sizes].sort((a, b) => a - b),
    heuristics: names.map((name) => ({ name, code: codeOf.get(name) ?? '' })),
    seeds: [...seeds].sort((a, b) => a - b),
    unfinishedRuns,
    makespansS: (h, s) => cells.get(cellKey(h, s)) ?? [],
    medianS: (h, s) => median(cells.get(cellKey(h, s)) ?? []),
    lowerBoundS: (s) => Math.max(...(bounds.get(s) ?? [NaN])),
    workBoundS: (s) => Math.max(...(workBounds.get(s) ?? [NaN])),
    lowerBoundBinding: (s) => binding.get(s)?.binding,
  };
}
