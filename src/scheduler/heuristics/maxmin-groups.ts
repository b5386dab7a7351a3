// Works that wait for a host on every cluster, kept out of Max-min's eager pass by groups (MctEngine, for
// rules whose key is minus the Work's MCT: ScoreRule.keyIsMinusCompletion), as host-bound-pool.ts keeps them
// out of the sufferage family's.
//
// Each run-time profile's host-bound Works with one output time o on every cluster form a group
// (host-bound-groups.ts): their MCT is fl(E + o), E the profile's least compute end, so the largest MCT of
// the group is its last Work's (largest o), and the Works whose fl(E + o) equal it are a run ending there.
// Max-min takes the largest MCT, ties to the least id: the group's best Work is the least-id Work of that
// run. So after each placement only that run's last Work is brought up to date and scored (its E and MCT),
// the run walked back to its least id, and that Work scored too and compared with the pass's best
// (bestWith, as the pool's). The others' cells are brought up to date when they leave the group.
import { HostBoundGroups, type GroupedEngine } from './host-bound-groups.js';
import type { PlanArrays } from './plan-arrays.js';
import type { ScoredByGroups } from './host-bound-pool.js';

/** What Max-min's groups need of the engine besides the lists'. */
export interface MaxMinEngine extends GroupedEngine {
  /** Brings Work j's cells up to date on every cluster and scores it; false when it cannot be placed (dropped). */
  refresh(j: number): boolean;
  /** Drops Work j: it cannot be placed. */
  drop(j: number): void;
  /** Work j's (scored) best host's compute end: its profile's least one, E. */
  bestEndS(j: number): number;
  ranksBefore(i: number, j: number): boolean;
}

export class MaxMinGroups extends HostBoundGroups implements ScoredByGroups {
  constructor(
    private readonly maxMin: MaxMinEngine,
    arrays: PlanArrays,
  ) {
    super(maxMin, arrays);
  }

  has(j: number): boolean {
    return this.member[j] === 1;
  }

  add(j: number): void {
    this.join(j);
  }

  /** Only Works alone in their class join (host-bound-groups.ts): their id never changes. */
  idChanged(j: number): void {
    throw new Error(`internal error: Max-min group member ${j} stands for another Work`);
  }

  /** The best-ranked of `best` (-1: none) and every group's best Work, each scored afresh. */
  bestWith(best: number): number {
    const engine = this.maxMin;
    for (let g = 0; g < this.count; g++) {
      while (!this.isEmpty(g)) {
        const last = this.lastOf(g);
        if (!engine.refresh(last)) {
          this.remove(last);
          engine.drop(last);
          continue;
        }
        const endS = engine.bestEndS(last);
        const mctS = endS + engine.outDur[last]!;
        const j = this.tiedBest(g, last, endS, mctS, -1);
        // Tied with the last one by construction: anything else is a bug in the grouping.
        if (j !== last && (!engine.refresh(j) || engine.bestEndS(j) + engine.outDur[j]! !== mctS)) {
          throw new Error(`internal error: Max-min group of profile ${g}: tied Work ${j}'s MCT is not ${mctS}`);
        }
        if (best < 0 || engine.ranksBefore(j, best)) best = j;
        break;
      }
    }
    return best;
  }
}
