// `gridsweep experiment` on a batch specification: every workload × policy × allocator, results that
// match trace mode's, AccaSim's box plots, and specification errors at file:line:column.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTrace } from '../../src/trace/run-trace.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-batch-exp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

describe('batch experiment', () => {
  it('runs every combination and draws slowdown and queue-size box plots per dispatcher', () => {
    const spec = {
      batch: 1,
      workloads: {
        hand: { file: join(PACKAGE_ROOT, 'test/fixtures/swf/hand.swf') },
        synthetic: { generator: { jobs: 800, nodes: 2, coresPerNode: 4, maxJobCores: 8 }, seed: 5 },
      },
      policies: ['fcfs', 'easy'],
      allocators: 'all',
      nodes: 2,
      coresPerNode: 4,
    };
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec, null, 2));
    const r = gridsweep('experiment', 'spec.json', '--out', 'out');
    expect(r.stderr).toContain('8 trace runs');
    expect(r.status).toBe(0);
    const csv = readFileSync(join(dir, 'out', 'results.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(9);
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      'hand,fcfs,first-fit,4', 'hand,fcfs,best-fit,4', 'hand,easy,first-fit,4', 'hand,easy,best-fit,4',
      'synthetic,fcfs,first-fit,800', 'synthetic,fcfs,best-fit,800', 'synthetic,easy,first-fit,800', 'synthetic,easy,best-fit,800',
    ]);
    // The same figures as trace mode on the generated workload the experiment kept.
    const json = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Array<{ workload: string; policy: string; allocator: string; metrics: unknown }>;
    const direct = runTrace({ workloadPath: join(dir, 'out', 'workloads', 'synthetic.swf'), nodes: 2, coresPerNode: 4, policy: 'easy', allocator: 'best-fit' });
    expect(json.find((x) => x.workload === 'synthetic' && x.policy === 'easy' && x.allocator === 'best-fit')!.metrics).toEqual(JSON.parse(JSON.stringify(direct.metrics)));
    for (const plot of ['slowdown.svg', 'bounded-slowdown.svg', 'queue-size.svg']) {
      const svg = readFileSync(join(dir, 'out', plot), 'utf8');
      for (const d of ['fcfs/first-fit', 'fcfs/best-fit', 'easy/first-fit', 'easy/best-fit']) {
        expect(svg, `${plot} ${d}`).toContain(`data-series="${d}" data-group="synthetic"`);
      }
      // Slowdowns: one value per job; queue sizes: one per dispatch.
      expect(svg).toMatch(plot === 'queue-size.svg' ? /synthetic: median [\d.]+, .*mean [\d.]+ ± [\d.]+ \(\d+ values\)/ : /synthetic: median [\d.]+, .*mean [\d.]+ ± [\d.]+ \(800 values\)/);
    }
  });

  it('takes machines as a dimension: every allocator that fits each, impossible pairs skipped and listed, allocation plots', () => {
    const spec = {
      batch: 1,
      workloads: { synthetic: { generator: { jobs: 300, nodes: 16, coresPerNode: 1, requestRoundingS: 3600 }, seed: 3 } },
      machines: ['bag', 'mesh:4x4'],
      policies: ['fcfs', 'conservative'],
      allocators: 'all',
    };
    writeFileSync(join(dir, 'mesh-spec.json'), JSON.stringify(spec, null, 2));
    const r = gridsweep('experiment', 'mesh-spec.json', '--out', 'mesh-out');
    expect(r.status, r.stderr).toBe(0);
    // bag: 2 policies × 2 allocators; mesh: 2 × 7 (linear, mbs, random, contiguous, mc1x1, gen-alg, mm)
    // less conservative × contiguous.
    expect(r.stderr).toContain('17 trace runs');
    expect(r.stderr).toMatch(/skipped 1 combination .*mesh:4x4 conservative\/contiguous: batch policy 'conservative' plans by counting free cores/);
    const csv = readFileSync(join(dir, 'mesh-out', 'results.csv'), 'utf8').trim().split('\n');
    const header = csv[0]!.split(',');
    expect(header.slice(-5)).toEqual(['machine', 'mean_pairwise_hops', 'mean_pieces', 'contiguous_share', 'fragmentation']);
    const rows = csv.slice(1).map((l) => l.split(','));
    expect(rows.filter((c) => c[17] === 'bag').every((c) => c[18] === '')).toBe(true);
    const contiguous = rows.find((c) => c[17] === 'mesh:4x4' && c[2] === 'contiguous')!;
    expect(Number(contiguous[20])).toBe(1); // every multi-node job in one piece
    const json = JSON.parse(readFileSync(join(dir, 'mesh-out', 'results.json'), 'utf8')) as { skipped: Array<{ allocator: string }> };
    expect(json.skipped.map((x) => x.allocator)).toEqual(['contiguous']);
    const svg = readFileSync(join(dir, 'mesh-out', 'pairwise-hops.svg'), 'utf8');
    expect(svg).toContain('data-series="mesh:4x4 fcfs/gen-alg" data-group="synthetic"');
    expect(svg).not.toContain('data-series="bag ');
  });

  it('names the place of an allocator that fits no machine of the experiment', () => {
    writeFileSync(join(dir, 'bad-alloc.json'), '{\n  "batch": 1,\n  "workloads": { "w": { "file": "w.swf" } },\n  "policies": ["fcfs"],\n  "allocators": ["first-fit", "gen-alg"]\n}\n');
    const r = gridsweep('experiment', 'bad-alloc.json', '--out', 'bad-alloc-out');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad-alloc\.json:5:31: error: allocator 'gen-alg' runs in no combination: allocator 'gen-alg' places jobs on a mesh or torus/);
  });

  it('names the place of an unknown policy, with the valid ones', () => {
    writeFileSync(join(dir, 'bad.json'), '{\n  "batch": 1,\n  "workloads": { "w": { "file": "w.swf" } },\n  "policies": ["fcfs", "fifo"]\n}\n');
    const r = gridsweep('experiment', 'bad.json', '--out', 'bad-out');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bad.json:4:24: error: /policies/1: must be equal to one of the allowed values');
    expect(r.stderr).toContain('expected: one of "fcfs", "sjf", "ljf", "easy", "conservative"');
    expect(r.stderr).not.toContain('constant');
  });

  it('refuses --port and --host without --dashboard, as for the other experiments, before running anything', () => {
    const batch = join(PACKAGE_ROOT, 'griddescs/batch/dispatchers.json');
    const timeshare = join(PACKAGE_ROOT, 'experiments/timeshare-rigid.json');
    for (const [spec, flag] of [[batch, '--port'], [batch, '--host'], [timeshare, '--port']] as const) {
      const r = gridsweep('experiment', spec, '--out', 'never', flag, flag === '--port' ? '8080' : '127.0.0.1');
      expect(r.status, `${spec} ${flag}`).toBe(2);
      expect(r.stderr.split('\n')[0], `${spec} ${flag}`).toBe(`gridsweep experiment: ${flag} goes with --dashboard`);
    }
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});
