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
// a run ending at its last Work (current k1 = −fl(E + o)). When the group's first member is within the limit
// the run is the whole group, which the draw counts by id without listing it (group-id-counts.ts); else the
// run is listed (drawWithin). A grouped Work drawn is then scored for its host (MctEngine.runEagerly).
import { GroupIdCounts, LARGE_SET } from './group-id-counts.js';
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
  /** The members counted by id, from the plan's first draw on (randomized Max-min only). */
  private counts: GroupIdCounts | undefined;
  /** Per group, its tree in counts (-1: none, a small group listed by drawWithin). */
  private treeOf: Int32Array | undefined;
  /** Scratch of drawWithin: the trees of the groups within the limit as a whole. */
  private treesWithin: Int32Array | undefined;

  constructor(
    private readonly maxMin: MaxMinEngine,
    private readonly arrays: PlanArrays,
  ) {
    super(maxMin, arrays);
  }

  has(j: number): boolean {
    return this.member[j] === 1;
  }

  add(j: number): void {
    this.join(j);
    const t = this.treeOf?.[this.maxMin.profileOf[j]!] ?? -1;
    if (t >= 0) this.counts!.add(j, t);
  }

  override remove(j: number): boolean {
    const empty = this.leave(j);
    this.counts?.remove(j);
    return empty;
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
   * Right after bestWith (ScoredByGroups.drawWithin; randomized Max-min): the draw among the ids out[0..at)
   * and the members whose current k1 = −fl(E + o) is within `limit`, E their group's least compute end as
   * bestWith found it. In a group those are a run ending at its last Work (largest o, least k1): the whole
   * group when its first member is within the limit (fl(E + o) grows with o), then counted if the group is a
   * large one, else listed into `out`. Then rng.int(their number) gives the rank, by increasing id, of the one
   * drawn: pick's draw.
   */
  drawWithin(limit: number, out: Int32Array, at: number, rng: { int(count: number): number }): number {
    const { outDur } = this.maxMin;
    const counts = this.counts ?? this.countMembers();
    const treeOf = this.treeOf!;
    const ends = this.endsScratch!;
    const within = (this.treesWithin ??= new Int32Array(this.count));
    let treeCount = 0;
    let counted = 0;
    for (let g = 0; g < this.count; g++) {
      if (this.isEmpty(g)) continue;
      if (treeOf[g]! >= 0 && -(ends[g]! + outDur[this.firstOf(g)]!) <= limit) {
        within[treeCount++] = treeOf[g]!;
        counted += this.sizeOf(g);
        continue;
      }
      at = this.runWithin(g, limit, out, at);
    }
    return counts.draw(within, treeCount, counted, out, at, rng);
  }

  /** At the plan's first draw: a tree for each large group (≥ LARGE_SET eligible Works and a 256th of them all), counting its members. */
  private countMembers(): GroupIdCounts {
    const { idOf, n } = this.maxMin;
    const { start, list, member } = this;
    const counts = (this.counts = new GroupIdCounts(idOf, n, this.arrays));
    const treeOf = (this.treeOf = this.arrays.int32(this.count, -1));
    const large = Math.max(LARGE_SET, list.length >> 8);
    for (let g = 0; g < this.count; g++) {
      const from = start[g]!;
      const size = start[g + 1]! - from;
      if (size >= large) treeOf[g] = counts.newTree(size, (k) => (member[list[from + k]!] === 1 ? list[from + k]! : -1));
    }
    return counts;
  }

  /** Appends to `out` from `at` the ids of group g's members within `limit` (a run ending at its last Work). */
  private runWithin(g: number, limit: number, out: Int32Array, at: number): number {
    const { list, member } = this;
    const { outDur, idOf } = this.maxMin;
    const endS = this.endsScratch![g]!;
    for (let k = this.place[this.lastOf(g)]!; k >= this.start[g]!; k--) {
      const j = list[k]!;
      if (member[j] === 0) continue;
      if (!(-(endS + outDur[j]!) <= limit)) break;
      out[at++] = idOf[j]!;
    }
    return at;
  }
}
