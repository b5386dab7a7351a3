// The fast engine against the naive reference on sweep-shaped instances larger than random-instance.ts's:
// chunks of Works sharing one big file, private inputs, several hosts per class, so that hosts fill up in
// turns and Works switch between waiting for the link and waiting for a host (the cases the engine's
// shortcuts — a cell kept when its two best hosts are unchanged — are about). Also on sweeps of a few
// kinds of identical Works (same estimates, same shared input or none, same output size: the engine keeps
// one set of cells per kind, work-classes.ts), mixed with Works of their own.
import { describe, expect, it } from 'vitest';
import type { FileSpec, WorkSpec } from '../../src/model/application.js';
import { GanttChart, type ChartCluster, type ChartHost } from '../../src/scheduler/gantt.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { HOST_CANDIDATES } from '../../src/scheduler/strategies/host-candidates.js';
import { Rng } from '../../src/util/rng.js';
import { referencePlan, type Placement } from './support/reference.js';

function sweepInstance(seed: number, kinds: 'distinct' | 'identical'): { chart: GanttChart; works: WorkSpec[] } {
  const rng = new Rng(seed);
  const files: FileSpec[] = [];
  const addFile = (sizeBytes: number): number => {
    files.push({ id: files.length, name: `f${files.length}`, sizeBytes, estSizeBytes: sizeBytes });
    return files.length - 1;
  };
  const works: WorkSpec[] = [];
  let shared = -1;
  // Identical Works: 4 kinds, each with its shared input (or none), estimates and output size.
  const templates = Array.from({ length: kinds === 'identical' ? 4 : 0 }, (_, k) => {
    const base = rng.pick([20, 30, 20 + rng.int(40)]);
    return { inputs: k === 3 ? [] : [addFile(20_000 + rng.int(20_000))], est: [base, Math.round(base * 1.5)], outputBytes: rng.pick([0, 1500]) };
  });
  for (let w = 0; w < 48; w++) {
    if (kinds === 'identical' && rng.int(6) !== 0) {
      const t = rng.pick(templates);
      works.push({ id: w, inputs: t.inputs, outputs: t.outputBytes === 0 ? [] : [addFile(t.outputBytes)], runTimeS: t.est, estRunTimeS: t.est });
      continue;
    }
    if (w % 12 === 0 || shared < 0) shared = addFile(20_000 + rng.int(20_000));
    const inputs = [shared, addFile(500 + rng.int(500)), addFile(rng.pick([100, 200]))];
    const base = rng.pick([20, 30, 20 + rng.int(40)]);
    const est = [base, Math.round(base * 1.5)];
    works.push({ id: w, inputs, outputs: rng.int(5) === 0 ? [] : [addFile(1000 + rng.int(1000))], runTimeS: est, estRunTimeS: est });
  }
  const clusters: ChartCluster[] = [];
  const hosts: ChartHost[] = [];
  for (let c = 0; c < 3; c++) {
    clusters.push({ id: `c${c}`, latencyS: rng.pick([0, 0.1]), bandwidthBps: rng.pick([1000, 2000, 5000]) });
    for (let k = 0; k < 6; k++) hosts.push({ id: `h${c}.${k}`, cluster: c, arch: rng.int(2), availability: rng.pick([1, 0.5]) });
  }
  const usage = new Map<number, number>();
  for (const w of works) for (const f of new Set(w.inputs)) usage.set(f, (usage.get(f) ?? 0) + 1);
  const nowS = 0;
  const chart = new GanttChart({ nowS, horizonS: nowS + rng.pick([60, 120, 240]), clusters, hosts, files, usage });
  hosts.forEach((_, h) => {
    if (rng.int(3) === 0) chart.holdHost(h, nowS + rng.int(80), nowS - 5);
  });
  return { chart, works };
}

const NAMES = ['minmin', 'sufferage', 'xsufferage', 'extended-sufferage', 'sufferage2', 'randomized-sufferage'];

for (const kinds of ['distinct', 'identical'] as const) {
  describe(`heuristics match the naive reference on sweep-shaped instances (${kinds} Works)`, () => {
    for (const name of NAMES) {
      for (const { name: hostCandidates } of HOST_CANDIDATES) {
        it(`${name}, ${hostCandidates} hosts: identical assignments on 30 instances`, () => {
          let placements = 0;
          for (let seed = 1; seed <= 30; seed++) {
            const fast = sweepInstance(seed, kinds);
            getHeuristic(name).plan({ chart: fast.chart, works: fast.works, rng: new Rng(seed), randomTolerance: 0.05, hostCandidates });
            const got: Placement[] = fast.chart.assignments.map((a) => ({ workId: a.workId, host: a.host }));
            const slow = sweepInstance(seed, kinds);
            expect(got, `${name}, ${hostCandidates}, seed ${seed}`).toEqual(referencePlan(name, slow.chart, slow.works, new Rng(seed), 0.05, hostCandidates));
            placements += got.length;
          }
          // Several rounds of placements per instance: hosts receive more than one Work.
          expect(placements).toBeGreaterThan(30 * 18);
        });
      }
    }
  });
}
