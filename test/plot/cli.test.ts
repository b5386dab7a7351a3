// `gridsweep plot` on real outputs: an experiment's results.json, and the run record of a real simulation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import plot from '../../src/cli/commands/plot.js';
import { simulate } from '../../backends/sim/simulate.js';
import { parseExperimentSpec } from '../../src/experiment/spec.js';
import { runExperiment } from '../../src/experiment/run-experiment.js';
import { generateGrid, generateMcellApplication, uniform, constant } from '../../src/generators/index.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Rng } from '../../src/util/rng.js';
import { runOne as cheapRunOne } from '../experiment/fixtures/cheap-runner.js';
import { findAll, hasClass, parseXml } from './xml.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-plot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function results(): Promise<string> {
  const spec = {
    name: 'p',
    heuristics: ['alpha', 'beta'],
    grids: { g: { generator: 'fig11-grid' } },
    applications: { a: { generator: 'fig11', sharedFileSizeKB: '${sharedFileSizeKB}' } },
    sweep: { variable: 'sharedFileSizeKB', values: [100, 400, 1600] },
    seeds: [1, 2, 3],
  };
  const path = join(dir, 'spec.json');
  writeFileSync(path, JSON.stringify(spec));
  const r = await runExperiment(parseExperimentSpec(JSON.stringify(spec), path, ['alpha', 'beta']), { outDir: join(dir, 'out'), runner: { inline: cheapRunOne } });
  return r.jsonPath;
}

describe('gridsweep plot', () => {
  it('draws line and box charts from results.json', async () => {
    const json = await results();
    const line = join(dir, 'line.svg');
    expect(await plot.run({ values: { kind: 'line', out: line }, positionals: [json] })).toBe(0);
    const svg = parseXml(readFileSync(line, 'utf8'));
    expect(findAll(svg, (n) => n.name === 'g' && hasClass(n, 'series')).map((g) => g.attrs['data-series'])).toEqual(['alpha', 'beta', 'lower bound']);
    const box = join(dir, 'box.svg');
    expect(await plot.run({ values: { kind: 'box', out: box }, positionals: [json] })).toBe(0);
    expect(findAll(parseXml(readFileSync(box, 'utf8')), (n) => hasClass(n, 'box'))).toHaveLength(6);
  });

  it('draws the Gantt chart of a real simulated run from its JSONL record', async () => {
    const app = generateMcellApplication(
      { chunks: 2, tasksPerChunk: 3, sharedFileSizeBytes: constant(50_000), unsharedInputsPerTask: 1, unsharedInputSizeBytes: uniform(1000, 2000), outputSizeBytes: constant(1000), runTimeS: uniform(50, 60) },
      new Rng(2),
    );
    const grid = generateGrid(
      { clusters: [{ hosts: [{ count: 2, availabilityPct: 100 }], bandwidthBps: 10240, latencyMs: 1 }, { hosts: [{ count: 1, availabilityPct: 50 }], bandwidthBps: 10240, latencyMs: 1 }] },
      new Rng(1),
    );
    const events: RunRecordEvent[] = [];
    const result = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, seed: 1, record: (e) => events.push(e) });
    expect(result.finished).toBe(true);
    const record = join(dir, 'run.jsonl');
    writeFileSync(record, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const out = join(dir, 'gantt.svg');
    expect(await plot.run({ values: { out }, positionals: [record] })).toBe(0);
    const svg = parseXml(readFileSync(out, 'utf8'));
    const bars = findAll(svg, (n) => n.name === 'rect' && hasClass(n, 'bar'));
    expect(bars.filter((b) => hasClass(b, 'compute'))).toHaveLength(6);
    expect(bars.filter((b) => hasClass(b, 'output'))).toHaveLength(6);
    // Shared files cross each link at most once per cluster: at most 2 clusters × (2 shared + 6 unshared) inputs.
    expect(bars.filter((b) => hasClass(b, 'input')).length).toBeLessThanOrEqual(16);
    const labels = findAll(svg, (n) => hasClass(n, 'row-label')).map((n) => n.text);
    expect(labels).toEqual(['cluster1 link', 'cluster1.h1', 'cluster1.h2', 'cluster2 link', 'cluster2.h1']);
  });

  it('bad input: a clear error and nothing written', async () => {
    const bogus = join(dir, 'bogus.json');
    writeFileSync(bogus, '{"not": "results"}');
    await expect(plot.run({ values: { out: join(dir, 'x.svg') }, positionals: [bogus] })).rejects.toThrow(/not an experiment results file/);
    await expect(plot.run({ values: { kind: 'pie', out: join(dir, 'x.svg') }, positionals: [bogus] })).rejects.toThrow(/--kind takes line, box, gantt/);
    expect(() => readFileSync(join(dir, 'x.svg'))).toThrow();
  });
});
