// (a) Every estimate-based heuristic gives exactly the assignments of the naive reference
// (support/reference.ts: full recomputation of Compl after each assignment) on hundreds of seeded
// random small instances, under both host-candidate rules (appendix C's every host, and hosts with room).
import { describe, expect, it } from 'vitest';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { HOST_CANDIDATES } from '../../src/scheduler/strategies/host-candidates.js';
import { Rng } from '../../src/util/rng.js';
import { randomInstance } from './support/random-instance.js';
import { referencePlan, type Placement } from './support/reference.js';

const NAMES = [
  'minmin',
  'maxmin',
  'sufferage',
  'extended-sufferage',
  'randomized-minmin',
  'randomized-maxmin',
  'randomized-sufferage',
  'randomized-extended-sufferage',
  'sufferage2',
  'xsufferage',
];
const INSTANCES = 400;

describe('heuristics match the naive reference', () => {
  for (const name of NAMES) {
    for (const { name: hostCandidates } of HOST_CANDIDATES) {
      it(`${name}, ${hostCandidates} hosts: identical assignments on ${INSTANCES} random instances`, () => {
        let placements = 0;
        for (let seed = 1; seed <= INSTANCES; seed++) {
          const tolerance = [0, 0.05, 0.3][seed % 3]!;
          const fast = randomInstance(seed);
          getHeuristic(name).plan({ chart: fast.chart, works: fast.works, rng: new Rng(seed), randomTolerance: tolerance, hostCandidates });
          const got: Placement[] = fast.chart.assignments.filter((a) => !a.kept).map((a) => ({ workId: a.workId, host: a.host }));
          const slow = randomInstance(seed);
          const want = referencePlan(name, slow.chart, slow.works, new Rng(seed), tolerance, hostCandidates);
          expect(got, `${name}, ${hostCandidates}, seed ${seed}`).toEqual(want);
          placements += want.length;
        }
        // The instances are not trivial: most of them place several Works.
        expect(placements).toBeGreaterThan(INSTANCES * 2);
      });
    }
  }
});
