// Shared by the tests of experiments computed on a real grid: a scratch folder holding a small Figure 11
// experiment (the Figure 11 grid file with its behaviour files, one application file and a generator, so
// that files, behaviour files and generators all travel), the CLI from sources, and the comparison of two
// results folders with the timing columns (planCpuMs, wallMs: real CPU and wall time) left out.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/util/package-root.js';
import { readJournal, type JournalEntry } from '../../../backends/real/journal.js';

/** Columns that measure this machine, not the simulation: they differ between any two runs. */
export const TIMING_COLUMNS = ['planCpuMs', 'wallMs'];

export interface Scratch {
  readonly dir: string;
  readonly specPath: string;
}

/**
 * A scratch folder with spec.json: heuristics × 2 applications (a file and a generator) × seeds on the
 * Figure 11 grid file; heuristics.length × 2 × seeds cells.
 */
export function makeScratch(heuristics: readonly string[], seeds: number): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-exp-grid-'));
  cpSync(join(PACKAGE_ROOT, 'griddescs', 'fig11'), join(dir, 'inputs', 'griddescs', 'fig11'), { recursive: true });
  cpSync(join(PACKAGE_ROOT, 'apps', 'fig11', 'fig11-400kb.app'), join(dir, 'inputs', 'apps', 'fig11-400kb.app'));
  const spec = {
    name: 'grid-test',
    heuristics,
    grids: { fig11: { file: 'inputs/griddescs/fig11/fig11.grid' } },
    applications: { file400: { file: 'inputs/apps/fig11-400kb.app' }, gen100: { generator: 'fig11', sharedFileSizeKB: 100, seed: '${seed}' } },
    seeds: { count: seeds },
  };
  const specPath = join(dir, 'spec.json');
  writeFileSync(specPath, JSON.stringify(spec, null, 2));
  return { dir, specPath };
}

/** A real grid file of one cluster of `slots` local slots, its storage in the scratch folder. */
export function localGridFile(scratch: Scratch, slots: number): string {
  const path = join(scratch.dir, 'local-grid.json');
  writeFileSync(path, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: join(scratch.dir, 'storage'), hosts: { type: 'local', slots } }] }, null, 2));
  return path;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `gridsweep ARGS` from sources, started: `kill` stops it, `result` is how it ended and what it wrote. */
export function startGridsweep(args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 240_000): { kill: (s: NodeJS.Signals) => void; stderr: () => string; result: Promise<CliResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const result = new Promise<CliResult>((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { kill: (s) => child.kill(s), stderr: () => stderr, result };
}

/** `gridsweep ARGS` from sources, to its end. */
export function gridsweep(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return startGridsweep(args, env).result;
}

/** results.csv without the timing columns. */
export function csvWithoutTiming(path: string): string {
  const lines = readFileSync(path, 'utf8').split('\n');
  const headerAt = lines.findIndex((l) => !l.startsWith('#'));
  const names = lines[headerAt]!.split(',');
  const keep = names.map((n, i) => (TIMING_COLUMNS.includes(n) ? -1 : i)).filter((i) => i >= 0);
  return lines.map((l, i) => (i < headerAt || l === '' ? l : keep.map((k) => l.split(',')[k]).join(','))).join('\n');
}

/** results.json with the timing fields of every row removed. */
export function jsonWithoutTiming(path: string): unknown {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !TIMING_COLUMNS.includes(k)).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  return strip(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * Two results folders hold the same results: results.csv and results.json equal but for the timing
 * columns, summary.txt and every chart byte for byte.
 */
export function expectSameResults(a: string, b: string): void {
  expect(csvWithoutTiming(join(a, 'results.csv'))).toBe(csvWithoutTiming(join(b, 'results.csv')));
  expect(jsonWithoutTiming(join(a, 'results.json'))).toEqual(jsonWithoutTiming(join(b, 'results.json')));
  const charts = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith('.svg') || f === 'summary.txt').sort();
  expect(charts(b)).toEqual(charts(a));
  expect(charts(a).length).toBeGreaterThan(1);
  for (const f of charts(a)) expect(readFileSync(join(b, f), 'utf8'), f).toBe(readFileSync(join(a, f), 'utf8'));
}

/** The cache keys stored in a results folder's runs/ (its cache). */
export function cachedKeys(outDir: string): string[] {
  const runs = join(outDir, 'runs');
  return readdirSync(runs).flatMap((d) => readdirSync(join(runs, d)).map((f) => f.replace(/\.json$/, ''))).sort();
}

/** How many tasks' results (groups of cells) have come back verified into the grid run's folder so far. */
/**
 * How many tasks of a grid run its journal lists as verified. (Not its result files: a result is fetched
 * before its 'verified' entry is written, so a kill between the two left one task fewer in the journal than
 * files in the folder, and the checks after a kill read the journal.)
 */
export function cellsVerified(outDir: string): number {
  try {
    return new Set(readJournal(join(outDir, 'grid-run', '.gridsweep', 'cells', 'journal.jsonl')).flatMap((e) => (e.type === 'verified' ? [e.work] : []))).size;
  } catch {
    return 0;
  }
}

/**
 * Disturbs a grid experiment once `disturbAfter` tasks have come back verified (`disturb` returns false
 * while it cannot yet: e.g. no pilot started), then SIGKILLs its controller once `killAfter` have and
 * `killWhen` (if given) holds: e.g. the controller has said what the disturbance did. Returns how many had
 * come back at the kill (-1: never killed within `limitMs`).
 */
export async function disturbThenKill(
  run: ReturnType<typeof startGridsweep>,
  outDir: string,
  o: { readonly disturbAfter: number; readonly disturb: () => boolean | Promise<boolean>; readonly killAfter: number; readonly killWhen?: () => boolean; readonly limitMs?: number },
): Promise<number> {
  let disturbed = false;
  for (let waited = 0; waited < (o.limitMs ?? 150_000); waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
    const fetched = cellsVerified(outDir);
    if (!disturbed && fetched >= o.disturbAfter) disturbed = await o.disturb();
    else if (disturbed && fetched >= o.killAfter && (o.killWhen?.() ?? true)) {
      run.kill('SIGKILL');
      return fetched;
    }
  }
  return -1;
}

/** The journal of a grid run as it stood when its controller was killed. */
export function journalAtKill(outDir: string): JournalEntry[] {
  return readJournal(join(outDir, 'grid-run', '.gridsweep', 'cells', 'journal.jsonl'));
}

/**
 * The whole journal of a grid run resumed after a kill (renamed aside once every cell was in the cache),
 * checked: it begins with the lines it had at the kill (`before`); no task verified before the kill was
 * started again; every one of `tasks` tasks is verified exactly once.
 */
export function checkResumedJournal(outDir: string, before: readonly JournalEntry[], tasks: number): JournalEntry[] {
  const verifiedBefore = new Set(before.flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
  const dir = join(outDir, 'grid-run', '.gridsweep', 'cells');
  const aside = readdirSync(dir).filter((f) => /^journal\..*\.jsonl$/.test(f));
  expect(aside).toHaveLength(1);
  const journal = readJournal(join(dir, aside[0]!));
  expect(journal.slice(0, before.length)).toEqual(before);
  expect(journal.slice(before.length).filter((e) => e.type === 'started' && verifiedBefore.has(e.work))).toEqual([]);
  const verified = journal.flatMap((e) => (e.type === 'verified' ? [e.work] : [])).sort((a, b) => a - b);
  expect(verified).toEqual([...Array(tasks).keys()]);
  return journal;
}
