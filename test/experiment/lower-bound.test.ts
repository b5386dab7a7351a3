// The makespan lower bound: hand-computed values on tiny cases, and never above a simulated makespan —
// every heuristic, seeded random MCell-style instances on constant-behaviour grids (where the means the
// bound uses are exact).
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { makespanLowerBound } from '../../src/experiment/lower-bound.js';
import { generateMcellApplication } from '../../src/generators/application.js';
import { generateGrid } from '../../src/generators/grid.js';
import type { Application } from '../../src/model/application.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Rng } from '../../src/util/rng.js';

const oneCluster = (hosts: number, bandwidthBps: number, latencyMs: number) => generateGrid({ clusters: [{ hosts: [{ count: hosts, availabilityPct: 100 }], bandwidthBps, latencyMs }] }, new Rng(1));

/** Works with one private input and one output each. */
function app(works: ReadonlyArray<{ inBytes: number; outBytes: number; runS: number }>): Application {
  const files = works.flatMap((w, i) => [
    { id: 2 * i, name: `in${i}`, sizeBytes: w.inBytes, estSizeBytes: w.inBytes },
    { id: 2 * i + 1, name: `out${i}`, sizeBytes: w.outBytes, estSizeBytes: w.outBytes },
  ]);
  return { files, works: works.map((w, i) => ({ id: i, inputs: [2 * i], outputs: [2 * i + 1], runTimeS: [w.runS], estRunTimeS: [w.runS] })) } as unknown as Application;
}

describe('makespan lower bound, by hand', () => {
  it('two 10 s tasks on two hosts behind a 1000 B/s link: the startup bound binds', () => {
    // cpu 20 / 2 = 10; link (2 × 1000 + 2 × 500) / 1000 = 3; task 10.
    // startup: a task's input needs 0.001 + 1000 / 1000 = 1.001 s, an output 0.001 + 0.5 = 0.501 s back:
    // 2 × (T − 1.502) = 20 → T = 11.502. (A best schedule ends at 12.503: the second input waits for the first.)
    const b = makespanLowerBound(app([{ inBytes: 1000, outBytes: 500, runS: 10 }, { inBytes: 1000, outBytes: 500, runS: 10 }]), oneCluster(2, 1000, 1));
    expect(b.cpuBoundS).toBeCloseTo(10, 12);
    expect(b.linkBoundS).toBeCloseTo(3, 12);
    expect(b.taskBoundS).toBeCloseTo(10, 12);
    expect(b.startupBoundS).toBeCloseTo(11.502, 12);
    expect(b).toMatchObject({ binding: 'startup' });
    expect(b.lowerBoundS).toBe(b.startupBoundS);
  });

  it('clusters that start later fill in later (water-filling)', () => {
    // Cluster a: 1 host, no wait (1 B at 1e9 B/s, latency 0); cluster b: 1 host, 100 s before its first
    // input. Work 110 s: a alone reaches 100 s of work at T = 100, then both: 100 + 2 (T − 100) = 110 → 105.
    const grid = generateGrid({ clusters: [
      { name: 'a', hosts: [{ count: 1, availabilityPct: 100 }], bandwidthBps: 1e9, latencyMs: 0 },
      { name: 'b', hosts: [{ count: 1, availabilityPct: 100 }], bandwidthBps: 1, latencyMs: 0 },
    ] }, new Rng(1));
    // Every task's input is 100 bytes: 1e-7 s on a, 100 s on b; outputs empty.
    const b = makespanLowerBound(app([{ inBytes: 100, outBytes: 0, runS: 55 }, { inBytes: 100, outBytes: 0, runS: 55 }]), grid);
    expect(b.startupBoundS).toBeCloseTo(105 + 0.5e-7, 6);
    expect(b.cpuBoundS).toBeCloseTo(55, 12);
    expect(b.binding).toBe('startup');
  });

  it('a compute-bound case keeps the CPU bound', () => {
    const b = makespanLowerBound(app(Array.from({ length: 8 }, () => ({ inBytes: 0, outBytes: 0, runS: 10 }))), oneCluster(2, 1000, 0));
    expect(b).toMatchObject({ cpuBoundS: 40, startupBoundS: 40, lowerBoundS: 40, binding: 'cpu' });
  });
});

describe('the bound never exceeds a simulated makespan', () => {
  it('every heuristic, 12 seeded random instances', () => {
    let closest = Infinity;
    for (let seed = 1; seed <= 12; seed++) {
      const rng = new Rng(seed);
      const grid = generateGrid({
        clusters: Array.from({ length: 1 + rng.int(3) }, () => ({
          hosts: [{ count: 1 + rng.int(4), availabilityPct: 20 + rng.int(81) }],
          bandwidthBps: 1000 * (1 + rng.int(50)),
          latencyMs: rng.int(50),
        })),
      }, rng.fork());
      const application = generateMcellApplication({
        chunks: 1 + rng.int(4),
        tasksPerChunk: 2 + rng.int(6),
        sharedFileSizeBytes: { kind: 'uniform', min: 1e3, max: 3e5 },
        unsharedInputsPerTask: rng.int(2),
        unsharedInputSizeBytes: { kind: 'uniform', min: 100, max: 2e4 },
        outputSizeBytes: { kind: 'uniform', min: 100, max: 2e4 },
        runTimeS: { kind: 'uniform', min: 5, max: 200 },
      }, rng.fork());
      const bound = makespanLowerBound(application, grid);
      for (const h of listHeuristics()) {
        const r = simulate({ app: application, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: h.name }, seed });
        expect(r.finished).toBe(true);
        expect(bound.lowerBoundS, `seed ${seed}, ${h.name}`).toBeLessThanOrEqual(r.makespanS * (1 + 1e-9));
        closest = Math.min(closest, r.makespanS / bound.lowerBoundS);
      }
    }
    // Not vacuous: some schedule comes within 10 % of the bound.
    expect(closest).toBeLessThan(1.1);
  });
});
