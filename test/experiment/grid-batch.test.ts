// A batch experiment (workloads × policies × allocators in trace mode) with `--grid` on local slots:
// each trace run is a task of the grid run (the SWF file and the generated workload shipped once, the
// bundled cell program runs the trace), and every file the experiment writes is byte for byte the one the
// local run writes (a batch experiment's results have no timing column).
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { gridsweep, localGridFile, makeScratch } from './support/grid-experiment.js';

describe('batch experiment --grid on local slots', () => {
  const scratch = makeScratch(['H0'], 1);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

  it('writes the files of the local run', async () => {
    cpSync(join(PACKAGE_ROOT, 'griddescs', 'batch', 'background.swf'), join(scratch.dir, 'background.swf'));
    const specPath = join(scratch.dir, 'batch.json');
    // 2 workloads × 3 policies × 2 bag allocators (first-fit, best-fit) = 12 trace runs.
    writeFileSync(
      specPath,
      JSON.stringify({
        batch: 1,
        name: 'grid-batch',
        workloads: { background: { file: 'background.swf' }, synthetic: { generator: { jobs: 2000, nodes: 16, coresPerNode: 4, load: 0.8, maxJobCores: 32 }, seed: 3 } },
        policies: ['fcfs', 'easy', 'sjf'],
        allocators: 'all',
      }),
    );
    const local = join(scratch.dir, 'local');
    const remote = join(scratch.dir, 'remote');
    const l = await gridsweep(['experiment', specPath, '--out', local]);
    expect(l.code, l.stderr).toBe(0);
    const g = await gridsweep(['experiment', specPath, '--out', remote, '--grid', localGridFile(scratch, 2)]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('12 trace runs on the real grid');
    // the bundle, the cell table and the two workloads, each sent once
    expect(g.stderr).toMatch(/real grid: 12 run\(s\) computed in 4 task\(s\), 0 failed, in [\d.]+ s; 4 input transfer\(s\)/);
    expect(g.stdout.replaceAll(remote, 'OUT')).toBe(l.stdout.replaceAll(local, 'OUT'));
    for (const f of ['results.json', 'results.csv', 'slowdown.svg', 'bounded-slowdown.svg', 'queue-size.svg']) expect(readFileSync(join(remote, f), 'utf8'), f).toBe(readFileSync(join(local, f), 'utf8'));
  }, 240_000);
});
