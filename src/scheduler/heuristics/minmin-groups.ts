// Works that wait for a host on every cluster, kept by groups in Min-min's lazy heap (MctEngine.runLazily,
// for rules whose key is the Work's MCT: ScoreRule.keyIsCompletion; randomized Min-min's draw too).
//
// Each run-time profile's host-bound Works with one output time o on every cluster form a group
// (host-bound-groups.ts: their MCT is fl(E + o), so within the profile they rank as their o's do, listed by
// (o, Work id)). The group is one entry of the heap, keyed by its best Work's key: the first Work of the
// list, or a later one of lower id whose o rounds to the same MCT (walked until the MCT grows).
// Kept one by one, hundreds of a profile's Works would come to the heap's top after each placement, one at
// a time, each brought up to date only to sink again; a group is brought up to date once. A randomized draw's candidates
// in a group are a prefix of its list: its Works whose fl(E + o) is within the draw's limit (within).
//
// Like a Work's key, a group's key is a lower bound of its Works' keys (Compls only grow as the chart fills),
// and exact ("current") while its best Work is in the group and nothing was placed on that Work's best
// cluster since: placements elsewhere only make other clusters' Compls larger, and Works leaving the group
// only remove keys. A Work joining it is scored first: if it ranks before the key, it is the group's best.
import { HostBoundGroups, type GroupedEngine } from './host-bound-groups.js';
import type { PlanArrays } from './plan-arrays.js';

export class MinMinGroups extends HostBoundGroups {
  /** Per group, its key (k1, k2, the best Work's id), the best Work (-1: the key is only a lower bound), and where it is current. */
  readonly k1: Float64Array;
  readonly k2: Float64Array;
  readonly id: Int32Array;
  private readonly best: Int32Array;
  private readonly bestCluster: Int32Array;
  private readonly bestAt: Int32Array;

  constructor(engine: GroupedEngine, arrays: PlanArrays) {
    super(engine, arrays);
    const G = this.count;
    this.k1 = arrays.float64(G);
    this.k2 = arrays.float64(G);
    this.id = arrays.int32(G);
    this.best = arrays.int32(G, -1);
    this.bestCluster = arrays.int32(G, -1);
    this.bestAt = arrays.int32(G, -1);
  }

  /**
   * Work j, admitted, joins its group with its current key (k1, k2) and best cluster, scored while `version`
   * placements had been made there. Returns whether its group (profileOf[j]) was empty.
   */
  add(j: number, k1: number, k2: number, cluster: number, version: number): boolean {
    const g = this.engine.profileOf[j]!;
    const wasEmpty = this.join(j);
    if (wasEmpty || k1 < this.k1[g]! || (k1 === this.k1[g] && (k2 < this.k2[g]! || (k2 === this.k2[g] && this.engine.idOf[j]! < this.id[g]!)))) this.setBest(g, j, k1, k2, cluster, version);
    return wasEmpty;
  }

  /** Work j leaves its group; returns true when the group is now empty (its entry must leave the heap). */
  override remove(j: number): boolean {
    const g = this.engine.profileOf[j]!;
    if (this.best[g] === j) this.best[g] = -1;
    return this.leave(j);
  }

  /** Group g's key is exact: its best Work is still in it and nothing was placed on its best cluster since. */
  current(g: number, clusterVersion: Int32Array): boolean {
    return this.best[g]! >= 0 && this.bestAt[g] === clusterVersion[this.bestCluster[g]!];
  }

  bestOf(g: number): number {
    return this.best[g]!;
  }

  /** Sets group g's key to Work j's, current (j is its best Work). */
  setBest(g: number, j: number, k1: number, k2: number, cluster: number, version: number): void {
    this.best[g] = j;
    this.k1[g] = k1;
    this.k2[g] = k2;
    this.id[g] = this.engine.idOf[j]!;
    this.bestCluster[g] = cluster;
    this.bestAt[g] = version;
  }
}
