// The sufferage family scores Works that wait for a host on every cluster by groups
// (src/scheduler/heuristics/host-bound-pool.ts; for its randomized rules the pool also writes every pooled
// Work's key for the draw), (randomized) Min-min keeps them by groups in its lazy
// heap (minmin-groups.ts) and Max-min out of its eager pass (maxmin-groups.ts): exact only if their
// floating-point reasoning is. Here the engine meets the naive
// reference on instances made for that reasoning to fail if it were wrong: every
// cluster behind links with equal estimates (so output times are the same everywhere), hosts busy for a
// while (so Works are host-bound), and clock values just below a power of two, where completion times fall
// on both sides of it (two binades, two rounding steps) and an output time of a few 1/256 s is an exact
// multiple of one binade's ulp and halfway between two multiples of the other's.
import { describe, expect, it } from 'vitest';
import type { FileSpec, WorkSpec } from '../../src/model/application.js';
import { GanttChart, type ChartCluster, type ChartHost } from '../../src/scheduler/gantt.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { HOST_CANDIDATES } from '../../src/scheduler/strategies/host-candidates.js';
import { Rng } from '../../src/util/rng.js';
import { referencePlan, type Placement } from './support/reference.js';

/**
 * With `slowInputs`, private inputs of hundreds to thousands of bytes over the same slow links: each placement
 * keeps a link busy for seconds, so Works go from host-bound to link-bound and back as the plan goes on
 * (the same draws otherwise).
 */
function hostBoundInstance(seed: number, slowInputs = false, workCount = 40): { chart: GanttChart; works: WorkSpec[] } {
  const rng = new Rng(seed);
  // 2^45 s: the ulp is 2^-8 s below, 2^-7 s above. 2^20 s: 2^-33 s and 2^-32 s.
  const nowS = rng.pick([2 ** 45 - 64, 2 ** 45 - 16, 2 ** 20 - 50, 100]);
  const files: FileSpec[] = [];
  const addFile = (sizeBytes: number): number => {
    files.push({ id: files.length, name: `f${files.length}`, sizeBytes, estSizeBytes: sizeBytes });
    return files.length - 1;
  };
  const shared = [addFile(2000), addFile(4000)];
  const works: WorkSpec[] = [];
  for (let w = 0; w < workCount; w++) {
    const privateBytes = (): number => (slowInputs ? 100 + 40 * rng.int(100) : rng.int(3));
    const inputs = rng.int(4) === 0 ? [rng.pick(shared), addFile(privateBytes())] : [addFile(privateBytes())];
    // Output sizes of a few bytes: over 256 or 512 B/s, a few 1/256 or 1/512 s.
    const outputs = rng.int(6) === 0 ? [] : [addFile(1 + rng.int(rng.pick([8, 600])))];
    // Few run-time profiles: large groups, whose Works differ only by their output times.
    const base = rng.pick([20, 30, 45]);
    const est = [base, base * 2];
    works.push({ id: w, inputs, outputs, runTimeS: est, estRunTimeS: est });
  }
  const link = { latencyS: rng.pick([0, 0.5, 0.1]), bandwidthBps: rng.pick([256, 512, 1000]) };
  const clusters: ChartCluster[] = [];
  const hosts: ChartHost[] = [];
  const clusterCount = 2 + rng.int(3);
  for (let c = 0; c < clusterCount; c++) {
    // Mostly equal links; now and then one that differs (its Works are scored one by one).
    clusters.push({ id: `c${c}`, ...(rng.int(8) === 0 ? { latencyS: 0.25, bandwidthBps: 300 } : link) });
    for (let k = 0; k < 2 + rng.int(3); k++) hosts.push({ id: `h${c}.${k}`, cluster: c, arch: rng.int(2), availability: rng.pick([1, 0.5, 0.75]) });
  }
  const usage = new Map<number, number>();
  for (const w of works) for (const f of new Set(w.inputs)) usage.set(f, (usage.get(f) ?? 0) + 1);
  const chart = new GanttChart({ nowS, horizonS: nowS + rng.pick([60, 150]), clusters, hosts, files, usage });
  clusters.forEach((_, c) => {
    if (rng.int(2) === 0) chart.markFile(c, shared[0]!, nowS);
  });
  hosts.forEach((_, h) => {
    // Busy until a time whose last bits vary: round-half-even then goes either way.
    if (rng.int(4) !== 0) chart.holdHost(h, nowS + rng.int(80) + rng.pick([0, 2 ** -8, 3 * 2 ** -7, 1 / 3]), nowS - 5);
  });
  return { chart, works };
}

// Every heuristic with a pool or groups of host-bound Works: the sufferage family, (randomized) Min-min and Max-min.
const NAMES = ['xsufferage', 'sufferage', 'extended-sufferage', 'sufferage2', 'minmin', 'randomized-minmin', 'maxmin', 'randomized-maxmin', 'randomized-sufferage', 'randomized-extended-sufferage'];

describe('heuristics that keep host-bound Works apart match the naive reference', () => {
  for (const name of NAMES) {
    for (const slowInputs of [false, true]) {
      for (const { name: hostCandidates } of HOST_CANDIDATES) {
        const what = slowInputs ? 'going link-bound and back' : 'near a power of two';
        it(`${name}, ${hostCandidates} hosts, ${what}: identical assignments on 150 instances`, () => {
          let placements = 0;
          for (let seed = 1; seed <= 150; seed++) {
            // Randomized rules: draws among the Works within no, a small and a large tolerance.
            const tolerance = name.startsWith('randomized-') ? [0, 0.05, 0.3][seed % 3]! : 0;
            const fast = hostBoundInstance(seed, slowInputs);
            getHeuristic(name).plan({ chart: fast.chart, works: fast.works, rng: new Rng(seed), randomTolerance: tolerance, hostCandidates });
            const got: Placement[] = fast.chart.assignments.map((a) => ({ workId: a.workId, host: a.host }));
            const slow = hostBoundInstance(seed, slowInputs);
            expect(got, `${name}, ${hostCandidates}, ${what}, seed ${seed}`).toEqual(referencePlan(name, slow.chart, slow.works, new Rng(seed), tolerance, hostCandidates));
            placements += got.length;
          }
          expect(placements).toBeGreaterThan(150 * 10);
        });
      }
    }
  }
});

// Randomized Max-min counts the Works of a large group (64 eligible Works or more) by id instead of listing
// them for its draw (group-id-counts.ts), and so do randomized Sufferage and Extended Sufferage for a large
// category of their pool (host-bound-pool.ts): instances of 400 Works in at most 3 run-time profiles per
// architecture have such groups and categories, their ids spread over 7 blocks of 64.
describe('randomized rules match the naive reference on large groups of host-bound Works', () => {
  for (const name of ['randomized-maxmin', 'randomized-sufferage', 'randomized-extended-sufferage']) {
    for (const slowInputs of [false, true]) {
      const what = slowInputs ? 'going link-bound and back' : 'near a power of two';
      it(`${name}, ${what}: identical assignments on 24 instances of 400 Works`, () => {
        let placements = 0;
        for (let seed = 1; seed <= 24; seed++) {
          const tolerance = [0.05, 0.3, 1][seed % 3]!;
          const fast = hostBoundInstance(seed, slowInputs, 400);
          getHeuristic(name).plan({ chart: fast.chart, works: fast.works, rng: new Rng(seed), randomTolerance: tolerance, hostCandidates: 'all' });
          const got: Placement[] = fast.chart.assignments.map((a) => ({ workId: a.workId, host: a.host }));
          const slow = hostBoundInstance(seed, slowInputs, 400);
          expect(got, `${name}, ${what}, seed ${seed}`).toEqual(referencePlan(name, slow.chart, slow.works, new Rng(seed), tolerance, 'all'));
          placements += got.length;
        }
        expect(placements).toBeGreaterThan(24 * 10);
      });
    }
  }
});
