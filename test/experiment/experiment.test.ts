import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseExperimentSpec, type ExperimentSpec } from '../../src/experiment/spec.js';
import { runExperiment } from '../../src/experiment/run-experiment.js';
import { makespanLowerBound } from '../../src/experiment/lower-bound.js';
import { fig11Application, fig11Grid } from '../../src/generators/fig11.js';
import { InputError } from '../../src/util/diagnostics.js';
import { runOne as cheapRunOne } from './fixtures/cheap-runner.js';

const HEURISTICS = ['alpha', 'beta', 'gamma', 'explode'];
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'gridsweep-exp-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const smallApp = (kb: string | number) => ({
  generator: 'mcell',
  seed: 3,
  spec: {
    chunks: 2,
    tasksPerChunk: 3,
    sharedFileSizeBytes: { kind: 'constant', value: kb },
    unsharedInputsPerTask: 1,
    unsharedInputSizeBytes: { kind: 'uniform', min: 100, max: 200 },
    outputSizeBytes: { kind: 'constant', value: 10 },
    runTimeS: { kind: 'uniform', min: 10, max: 20 },
  },
});

function specFile(dir: string, spec: object): string {
  const path = join(dir, 'spec.json');
  writeFileSync(path, JSON.stringify(spec, null, 2));
  return path;
}

function load(dir: string, spec: object) {
  const path = specFile(dir, spec);
  return parseExperimentSpec(readFileSync(path, 'utf8'), path, HEURISTICS);
}

function baseSpec(): Record<string, unknown> {
  return {
    name: 'small',
    heuristics: ['alpha', 'beta', 'gamma'],
    strategies: { plain: {}, wide: { deltaS: 900 } },
    grids: { g: { generator: 'grid', spec: { clusters: [{ hosts: [{ count: 2, availabilityPct: 100 }], bandwidthBps: 1000, latencyMs: 1 }] } } },
    applications: { a: smallApp('${size}') },
    sweep: { variable: 'size', values: [1000, 2000] },
    seeds: { count: 3 },
  };
}

function csvRows(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split(','));
}

function errorText(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  throw new Error('no InputError thrown');
}

describe('experiment specification', () => {
  it('expands "all", seed ranges and strategies', () => {
    const l = load(tempDir(), { ...baseSpec(), heuristics: 'all', seeds: { count: 2, first: 7 } });
    expect(l.heuristics).toEqual(HEURISTICS);
    expect(l.seeds).toEqual([7, 8]);
    expect(l.strategies.map((s) => s.name)).toEqual(['plain', 'wide']);
    expect(l.sweepValues).toEqual([1000, 2000]);
  });

  it('names the JSON path, line and column of a schema error', () => {
    const dir = tempDir();
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{\n  "heuristics": ["alpha"],\n  "grids": {"g": {"file": "x.grid"}},\n  "applications": {"a": {"file": "y.app"}},\n  "seeds": [1],\n  "strategies": {"s": {"deltaS": "soon"}}\n}\n');
    const msg = errorText(() => parseExperimentSpec(readFileSync(path, 'utf8'), path, HEURISTICS));
    expect(msg).toContain(`${path}:6:`);
    expect(msg).toContain('/strategies/s/deltaS');
  });

  it('takes seeds the random generator takes: whole numbers below 2^32, each once, a count within bounds', () => {
    const dir = tempDir();
    expect(errorText(() => load(dir, { ...baseSpec(), seeds: { count: 10, first: 4294967290 } }))).toMatch(
      /\/seeds: 10 seeds from 4294967290 run past 4294967295, the largest seed[\s\S]*at most 4294967286 for 10 seeds/,
    );
    // Where the schema has no description, the fix says what to write rather than repeating ajv's message.
    expect(errorText(() => load(dir, { ...baseSpec(), seeds: { count: 1e308 } }))).toMatch(/\/seeds\/count: must be <= 100000\n {2}found: 1e\+308\n {2}expected: a number of at most 100000\n {2}fix: write a number of at most 100000/);
    expect(errorText(() => load(dir, { ...baseSpec(), seeds: [1, 4294967296] }))).toMatch(/\/seeds\/1: must be <= 4294967295\n.*\n.*\n {2}fix: write a number of at most 4294967295/);
    expect(errorText(() => load(dir, { ...baseSpec(), seeds: [3, 3] }))).toMatch(/\/seeds: must NOT have duplicate items.*\n.*\n.*\n {2}fix: write a list that names each item once/);
    expect(load(dir, { ...baseSpec(), seeds: { count: 2, first: 4294967294 } }).seeds).toEqual([4294967294, 4294967295]);
    // A generator's own seed, the same range (or a variable).
    const generated = (seed: unknown) => ({ ...baseSpec(), applications: { a: { generator: 'fig11', sharedFileSizeKB: 100, seed } } });
    expect(errorText(() => load(dir, generated(4294967296)))).toMatch(/\/applications\/a\/seed: must be <= 4294967295/);
    expect(load(dir, generated('${seed}')).seeds).toEqual([1, 2, 3]);
  });

  it('rejects unknown heuristics with a suggestion, unknown options and unknown variables', () => {
    const dir = tempDir();
    const msg = errorText(() => load(dir, { ...baseSpec(), heuristics: ['alpa'] }));
    expect(msg).toMatch(/\/heuristics\/0: unknown heuristic "alpa"/);
    expect(msg).toMatch(/did you mean "alpha"/);
    expect(errorText(() => load(dir, { ...baseSpec(), strategies: { s: { turbo: true } } }))).toMatch(/unknown property "turbo"/);
    expect(errorText(() => load(dir, { ...baseSpec(), applications: { a: smallApp('${sise}') } }))).toMatch(/unknown variable "\$\{sise\}"/);
  });
});

describe('lower bound', () => {
  it('the Figure 11 bound: the CPU bound from 400 tasks over 4 + 4.2 + 3.6 hosts, or the link bound', () => {
    const grid = fig11Grid();
    const app = fig11Application(9600);
    const b = makespanLowerBound(app, grid);
    const workS = app.works.reduce((s, w) => s + w.runTimeS[0]!, 0);
    expect(b.cpuBoundS).toBeCloseTo(workS / (4 + 6 * 0.7 + 12 * 0.3), 6);
    const bytes = app.files.reduce((s, f) => s + f.sizeBytes, 0);
    expect(b.linkBoundS).toBeCloseTo(bytes / (3 * 10240), 6);
    expect(b.taskBoundS).toBeCloseTo(Math.max(...app.works.map((w) => w.runTimeS[0]!)), 6);
    expect(b.lowerBoundS).toBe(Math.max(b.cpuBoundS, b.linkBoundS, b.taskBoundS, b.startupBoundS));
    // 400 tasks of ~100 s on 11.8 host-equivalents: of the work-only bounds the CPU one wins even at 9600 KB
    // (8 × 9600 KB over 3 links); but every cluster waits 960 s (9,830,400 B at 10,240 B/s, + 1 ms) for a
    // first shared file, and with equal waits on every cluster the startup bound is the CPU bound + 960 s +
    // the first unshared input in and the smallest output out.
    expect(b.cpuBoundS).toBeGreaterThan(Math.max(b.linkBoundS, b.taskBoundS));
    expect(b.binding).toBe('startup');
    expect(b.startupBoundS - b.cpuBoundS).toBeGreaterThan(960);
    expect(b.startupBoundS - b.cpuBoundS).toBeLessThan(970);
    expect(makespanLowerBound(fig11Application(100), grid).linkBoundS).toBeLessThan(b.linkBoundS / 5);
  });
});

describe('running an experiment', () => {
  it('runs the cross product, writes CSV and JSON with headers, and caches every run', async () => {
    const dir = tempDir();
    const l = load(dir, baseSpec());
    const out = join(dir, 'out');
    const first = await runExperiment(l, { outDir: out, runner: { inline: cheapRunOne } });
    expect(first.total).toBe(3 * 2 * 2 * 3);
    expect(first.simulated).toBe(36);
    expect(first.cached).toBe(0);
    expect(first.failures).toEqual([]);

    const csv = readFileSync(first.csvPath, 'utf8');
    expect(csv).toMatch(/^# gridsweep \d+\.\d+\.\d+ \(results version \d+\) experiment small/);
    expect(csv).toMatch(/# seeds 1 2 3/);
    expect(csv).toMatch(/# application a size=1000 sha256=[0-9a-f]{64}/);
    expect(csv).toMatch(/# grid g sha256=[0-9a-f]{64}/);
    const rows = csvRows(first.csvPath);
    expect(rows[0]!.slice(0, 6)).toEqual(['application', 'grid', 'heuristic', 'strategy', 'size', 'seed']);
    expect(rows).toHaveLength(37);
    const json = JSON.parse(readFileSync(first.jsonPath, 'utf8')) as { header: { seeds: number[]; inputs: unknown[] }; rows: Record<string, unknown>[] };
    expect(json.header.seeds).toEqual([1, 2, 3]);
    expect(json.header.inputs).toHaveLength(3);
    expect(json.rows).toHaveLength(36);
    const row = json.rows.find((r) => r['heuristic'] === 'beta' && r['strategy'] === 'wide' && r['sweep'] === 2000 && r['seed'] === 2)!;
    expect(row['makespanS'] as number).toBeGreaterThan(0);
    expect(row['lowerBoundS'] as number).toBeGreaterThan(0);
    // The swept size reaches the application: bytes moved differ by 2 × 1000 between the two values.
    const other = json.rows.find((r) => r['heuristic'] === 'beta' && r['strategy'] === 'wide' && r['sweep'] === 1000 && r['seed'] === 2)!;
    expect((row['bytesMoved'] as number) - (other['bytesMoved'] as number)).toBe(2000);
    expect(readdirSync(join(out, 'runs')).length).toBeGreaterThan(0);

    const again = await runExperiment(l, { outDir: out, runner: { inline: cheapRunOne } });
    expect(again.simulated).toBe(0);
    expect(again.cached).toBe(36);
    expect(readFileSync(again.csvPath, 'utf8')).toBe(csv);
  });

  it('resumes: only runs whose result file is missing are run again', async () => {
    const dir = tempDir();
    const l = load(dir, baseSpec());
    const out = join(dir, 'out');
    const first = await runExperiment(l, { outDir: out, runner: { inline: cheapRunOne } });
    const json = JSON.parse(readFileSync(first.jsonPath, 'utf8')) as { rows: { key: string }[] };
    for (const r of json.rows.slice(0, 5)) unlinkSync(join(out, 'runs', r.key.slice(0, 2), `${r.key}.json`));
    const resumed = await runExperiment(l, { outDir: out, runner: { inline: cheapRunOne } });
    expect(resumed.simulated).toBe(5);
    expect(resumed.cached).toBe(31);
    expect(readFileSync(resumed.jsonPath, 'utf8')).toBe(readFileSync(first.jsonPath, 'utf8'));
  });

  it('the cache key follows content, not names: renaming an input reuses its results', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    await runExperiment(load(dir, baseSpec()), { outDir: out, runner: { inline: cheapRunOne } });
    const renamed = { ...baseSpec(), applications: { renamed: smallApp('${size}') } };
    const r = await runExperiment(load(dir, renamed), { outDir: out, runner: { inline: cheapRunOne } });
    expect(r.simulated).toBe(0);
    const changed = { ...baseSpec(), seeds: [1, 2, 3, 4] };
    const c = await runExperiment(load(dir, changed), { outDir: out, runner: { inline: cheapRunOne } });
    expect(c.simulated).toBe(12);
  });

  it('a failing run is reported, not cached, and the others are kept', async () => {
    const dir = tempDir();
    const l = load(dir, { ...baseSpec(), heuristics: ['alpha', 'explode'] });
    const r = await runExperiment(l, { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } });
    expect(r.failures).toHaveLength(12);
    expect(r.failures[0]!.message).toBe('the runner exploded');
    expect(r.simulated).toBe(12);
    expect(csvRows(r.csvPath)).toHaveLength(13);
  });

  it('the summary table shows the median across seeds per heuristic and swept value', async () => {
    const dir = tempDir();
    const l = load(dir, { ...baseSpec(), strategies: undefined });
    const r = await runExperiment(l, { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } });
    const text = r.table.format();
    expect(text.split('\n')[0]).toBe('median makespan (s) by size, then mean ± sd over seeds');
    expect(text).toMatch(/^alpha\s+\d+ \(\d+ ± \d+\)\s+\d+ \(\d+ ± \d+\)$/m);
    expect(text).toMatch(/^lower bound\s+\d+\s+\d+$/m);
    expect(readFileSync(r.summaryPath!, 'utf8')).toBe(`${text}\n`);
    // Seeds 1, 2, 3 add 1, 2, 3 s: the median is the seed-2 run.
    const s2 = JSON.parse(readFileSync(r.jsonPath, 'utf8')).rows.find((x: Record<string, unknown>) => x['heuristic'] === 'gamma' && x['sweep'] === 1000 && x['seed'] === 2);
    expect(r.table.medianOf('gamma', 1000)).toBe(s2.makespanS);
  });

  it('draws its charts into the results folder: against the swept variable and each other varied dimension', async () => {
    const dir = tempDir();
    const r = await runExperiment(load(dir, baseSpec()), { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } });
    expect(r.plots.map((p) => p.slice(join(dir, 'out').length + 1))).toEqual(['makespan-line.svg', 'makespan-box.svg', 'makespan-by-strategy.svg']);
    const byStrategy = readFileSync(join(dir, 'out', 'makespan-by-strategy.svg'), 'utf8');
    // Grouped by strategy, one box per heuristic (the strategy is the x axis, not part of the series name).
    for (const strategy of ['plain', 'wide']) for (const h of ['alpha', 'beta', 'gamma']) expect(byStrategy).toContain(`data-series="${h}" data-group="${strategy}"`);
    // Each box over 3 seeds × 2 sizes, with mean ± sd in its tooltip.
    expect(byStrategy).toMatch(/alpha @ plain: median [\d.]+, quartiles [\d.]+–[\d.]+, range [\d.]+–[\d.]+, mean [\d.]+ ± [\d.]+ \(6 values\)/);
    const box = readFileSync(join(dir, 'out', 'makespan-box.svg'), 'utf8');
    expect(box).toMatch(/alpha\/plain @ 1000: .* \(3 values\)/);
  });

  it('worker threads give the same results as one thread', async () => {
    const dir = tempDir();
    const l = load(dir, baseSpec());
    const inline = await runExperiment(l, { outDir: join(dir, 'inline'), runner: { inline: cheapRunOne } });
    const module = new URL('./fixtures/cheap-runner.ts', import.meta.url).href;
    const pooled = await runExperiment(l, { outDir: join(dir, 'pool'), jobs: 2, runner: { module } });
    expect(pooled.simulated).toBe(36);
    const strip = (p: string) => (JSON.parse(readFileSync(p, 'utf8')) as { rows: Record<string, unknown>[] }).rows.map(({ wallMs: _w, ...rest }) => rest);
    expect(strip(pooled.jsonPath)).toEqual(strip(inline.jsonPath));
  });

  it('a runner module without runOne fails every run with the reason', async () => {
    const dir = tempDir();
    const l = load(dir, { ...baseSpec(), sweep: undefined, applications: { a: smallApp(1000) }, seeds: [1] });
    const module = new URL('./fixtures/broken-runner.ts', import.meta.url).href;
    const r = await runExperiment(l, { outDir: join(dir, 'out'), jobs: 1, runner: { module } });
    expect(r.failures.length).toBe(6);
    expect(r.failures[0]!.message).toMatch(/does not export runOne/);
  });

  it('a generator spec that breaks its schema is refused when the spec is loaded, at the field, once', () => {
    const dir = tempDir();
    const bad = { ...baseSpec(), applications: { a: { ...smallApp('${size}'), spec: { ...smallApp(1).spec, chunks: 0 } } } };
    const msg = errorText(() => load(dir, bad));
    // Checked for both swept values (1000, 2000), but one mistake gives one error.
    expect(msg.match(/error:/g)).toHaveLength(1);
    expect(msg).toMatch(/\/applications\/a\/spec\/chunks: must be >= 1/);
  });

  it('a generator that cannot build an input stops the experiment before any run, naming the entry', async () => {
    const dir = tempDir();
    // min > max is a fault between two fields, which only the generator sees.
    const spec = { ...smallApp(1).spec, runTimeS: { kind: 'uniform', min: 10, max: 1 } };
    const bad = { ...baseSpec(), applications: { a: { ...smallApp('${size}'), spec } } };
    const l = load(dir, bad);
    await expect(runExperiment(l, { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } })).rejects.toThrow(/\/applications\/a: cannot build this application for size = 1000: runTimeS: uniform needs finite min <= max/);
  });

  it('a swept variable given as a generator seed is held to the seeds the random generator takes', async () => {
    const dir = tempDir();
    // 2^32 + 1 would repeat seed 1's application (the generator reads 32 bits); -1 and 1.5 are no seeds.
    for (const value of [4294967297, -1, 1.5]) {
      const spec = { ...baseSpec(), applications: { a: { ...smallApp(1000), seed: '${size}' } }, sweep: { variable: 'size', values: [1, value] } };
      await expect(runExperiment(load(dir, spec), { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } })).rejects.toThrow(
        `/applications/a: cannot build this application for size = ${value}: seed must be a whole number from 0 to 4294967295, got ${value}`,
      );
    }
  });
});

export type { ExperimentSpec };
