// Works that wait for a host on every cluster, kept out of (randomized) Max-min's eager pass by groups
// (MctEngine, for rules whose key is minus the Work's MCT: ScoreRule.keyIsMinusCompletion), as host-bound-pool.ts keeps them
// out of the sufferage family's.
//
// Each run-time profile's host-bound Works with one output time o on every cluster form a group
// (host-bound-groups.ts): their MCT is fl(E + o), E the profile's least compute end, so the largest MCT of
// the group is its last Work's (largest o), and the Works whose fl(E + o) equal it are a run ending there.
// Max-min takes the largest MCT, ties to the least id: the group's best Work is the least-id Work of that
// run. So after each placement only that run's last Work is brought up to date and scored (its E and MCT),
// the run walked back to its least id, and that Work scored too and compared with the pass's best
// (bestWith, as the pool's). The others' cells are brought up to date when they leave the group.
// Randomized Max-min draws among the Works whose k1 = −MCT is within a limit set by the best one: in a group,
// a run ending at its last Work, whose current k1 = −fl(E + o) are computed there (candidatesWithin); a
// grouped Work drawn is then scored for its host (MctEngine.runEagerly).
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
  /** Scratch of bestWith: per group, its least compute end E. */
  private endsScratch: Float64Array | undefined;

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
    const ends = (this.endsScratch ??= new Float64Array(this.count));
    for (let g = 0; g < this.count; g++) {
      while (!this.isEmpty(g)) {
        const last = this.lastOf(g);
        if (!engine.refresh(last)) {
          this.remove(last);
          engine.drop(last);
          continue;
        }
        const endS = (ends[g] = engine.bestEndS(last));
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

  /**
   * Right after bestWith (ScoredByGroups.candidatesWithin; randomized Max-min): the ids of the members whose
   * current k1 = −fl(E + o) is within `limit`, E their group's least compute end as bestWith found it. In a
   * group they are a run ending at its last Work (largest o, least k1).
   */
  candidatesWithin(limit: number, out: Int32Array, at: number): number {
    const { list, member } = this;
    const { outDur, idOf } = this.maxMin;
    const ends = this.endsScratch!;
    for (let g = 0; g < this.count; g++) {
      if (this.isEmpty(g)) continue;
      for (let k = this.place[this.lastOf(g)]!; k >= this.start[g]!; k--) {
        const j = list[k]!;
        if (member[j] === 0) continue;
        if (!(-(ends[g]! + outDur[j]!) <= limit)) break;
        out[at++] = idOf[j]!;
      }
    }
    return at;
  }
}
