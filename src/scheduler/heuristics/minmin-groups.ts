// Works that wait for a host on every cluster, kept by groups in Min-min's lazy heap (MctEngine.runLazily,
// for rules whose key is the Work's MCT: ScoreRule.keyIsCompletion; randomized Min-min's draw too).
//
// A Work is "host-bound" on cluster c when its inputs are there by the time the cluster's first candidate
// host is free: then its best host there and that host's compute end E_c depend only on its run-time
// profile, and its Compl there is fl(E_c + o), o being its output time. When o is the same on every cluster
// (links of equal estimates) and the Work is host-bound on all of them, its MCT is min_c fl(E_c + o) =
// fl(E + o) with E = min_c E_c, since rounding to nearest is monotonic. Within one profile, such Works then
// rank as their o's do: a larger o never gives a smaller MCT. Each profile's such Works form a group, listed
// once per plan by (o, Work id); the group is one entry of the heap, keyed by its best Work's key: the first
// Work of the list, or a later one of lower id whose o rounds to the same MCT (walked until the MCT grows).
// Kept one by one, hundreds of a profile's Works would come to the heap's top after each placement, one at
// a time, each brought up to date only to sink again; a group is brought up to date once. A randomized draw's candidates
// in a group are a prefix of its list: its Works whose fl(E + o) is within the draw's limit (within).
//
// Like a Work's key, a group's key is a lower bound of its Works' keys (Compls only grow as the chart fills),
// and exact ("current") while its best Work is in the group and nothing was placed on that Work's best
// cluster since: placements elsewhere only make other clusters' Compls larger, and Works leaving the group
// only remove keys. A Work joining it is scored first: if it ranks before the key, it is the group's best.
// A Work leaves when one of its files gets planned on a cluster, when its link becomes the later of the two
// on a cluster after a placement there (linkBoundOn), or when it is placed. Only Works alone in their class
// (work-classes.ts) join: a class's id changes as its Works are placed, and would move it in the list.
import { IndexedHeap } from '../indexed-heap.js';
import type { PlanArrays } from './plan-arrays.js';

/** What the groups need of the engine. Arrays are per Work, or per (cluster c, Work i) at c * n + i. */
export interface GroupedEngine {
  readonly n: number;
  readonly clusterCount: number;
  readonly profileOf: Int32Array;
  readonly profileCount: number;
  /** Per Work, the index in the plan's Works of the Work it stands for (ties go to the lower). */
  readonly idOf: Int32Array;
  readonly outDur: Float64Array;
  readonly sendDur: Float64Array;
  readonly availReady: Float64Array;
  readonly summaryStale: Uint8Array;
  /** Per Work: 1 when it may join its profile's group (markEligible). */
  readonly eligible: Uint8Array;
  /** The first free time of cluster c's candidate hosts (Infinity: none). */
  firstFreeS(c: number): number;
  linkFreeS(c: number): number;
}

/**
 * Into `eligible`, 1 for the Works that may join their profile's group: alone in their class (`alone`) and
 * with the same finite output time on every cluster. Returns how many.
 */
export function markEligible(n: number, clusterCount: number, outDur: Float64Array, alone: Uint8Array, eligible: Uint8Array): number {
  let count = 0;
  for (let j = 0; j < n; j++) {
    const o = outDur[j]!;
    let same = alone[j] === 1 && o >= 0 && o < Infinity;
    for (let c = 1; c < clusterCount && same; c++) same = outDur[c * n + j] === o;
    eligible[j] = same ? 1 : 0;
    if (same) count++;
  }
  return count;
}

export class MinMinGroups {
  /** Heap entries of the groups are n + g, g the profile. */
  readonly count: number;
  readonly member: Uint8Array;
  /** Per profile, its eligible Works by (o, id): list[start[g]] up to list[start[g + 1]]; per Work, its place there. */
  private readonly start: Int32Array;
  private readonly list: Int32Array;
  private readonly place: Int32Array;
  /** Per group: its Works' count; no member lies in the list before first[g]. */
  private readonly size: Int32Array;
  private readonly first: Int32Array;
  /** Per group, its key (k1, k2, the best Work's id), the best Work (-1: the key is only a lower bound), and where it is current. */
  readonly k1: Float64Array;
  readonly k2: Float64Array;
  readonly id: Int32Array;
  private readonly best: Int32Array;
  private readonly bestCluster: Int32Array;
  private readonly bestAt: Int32Array;
  /** Per cluster, the members with an input missing there, longest send first. */
  private readonly bySend: IndexedHeap[];
  private readonly leaving: number[] = [];

  constructor(
    private readonly engine: GroupedEngine,
    arrays: PlanArrays,
  ) {
    const { n, clusterCount: C, outDur, profileOf, idOf, sendDur, eligible } = engine;
    const G = (this.count = engine.profileCount);
    this.member = arrays.uint8(n);
    this.place = arrays.int32(n, -1);
    this.start = arrays.int32(G + 1);
    let eligibleCount = 0;
    for (let j = 0; j < n; j++) {
      if (eligible[j] === 0) continue;
      this.start[profileOf[j]! + 1]!++;
      eligibleCount++;
    }
    for (let g = 0; g < G; g++) this.start[g + 1]! += this.start[g]!;
    const list = (this.list = arrays.int32(eligibleCount));
    const filled = arrays.int32(G);
    for (let j = 0; j < n; j++) if (eligible[j] === 1) list[this.start[profileOf[j]!]! + filled[profileOf[j]!]!++] = j;
    for (let g = 0; g < G; g++) {
      const part = list.subarray(this.start[g]!, this.start[g + 1]!);
      part.sort((a, b) => (outDur[a] !== outDur[b] ? outDur[a]! - outDur[b]! : idOf[a]! - idOf[b]!));
      for (let k = this.start[g]!; k < this.start[g + 1]!; k++) this.place[list[k]!] = k;
    }
    this.size = arrays.int32(G);
    this.first = arrays.int32(G);
    for (let g = 0; g < G; g++) this.first[g] = this.start[g]!;
    this.k1 = arrays.float64(G);
    this.k2 = arrays.float64(G);
    this.id = arrays.int32(G);
    this.best = arrays.int32(G, -1);
    this.bestCluster = arrays.int32(G, -1);
    this.bestAt = arrays.int32(G, -1);
    this.bySend = Array.from({ length: C }, (_, c) => {
      const base = c * n;
      return new IndexedHeap((a, b) => sendDur[base + a]! > sendDur[base + b]! || (sendDur[base + a] === sendDur[base + b] && a < b), arrays.int32(n, -1));
    });
  }

  /** Work j (its summaries current) is eligible and host-bound on every cluster. */
  admits(j: number): boolean {
    const { n, clusterCount: C, summaryStale, availReady, sendDur, eligible } = this.engine;
    if (eligible[j] === 0) return false;
    for (let c = 0; c < C; c++) {
      const cell = c * n + j;
      if (summaryStale[cell] === 1) return false;
      // The engine's test (MctEngine.updateCells: readyS <= the front's first free time).
      if (!(Math.max(availReady[cell]!, this.engine.linkFreeS(c) + sendDur[cell]!) <= this.engine.firstFreeS(c))) return false;
    }
    return true;
  }

  /**
   * Work j, admitted, joins its group with its current key (k1, k2) and best cluster, scored while `version`
   * placements had been made there. Returns whether its group (profileOf[j]) was empty.
   */
  add(j: number, k1: number, k2: number, cluster: number, version: number): boolean {
    const { n, clusterCount: C, sendDur, profileOf, idOf } = this.engine;
    const g = profileOf[j]!;
    this.member[j] = 1;
    for (let c = 0; c < C; c++) if (sendDur[c * n + j]! > -Infinity) this.bySend[c]!.push(j);
    if (this.place[j]! < this.first[g]!) this.first[g] = this.place[j]!;
    const wasEmpty = this.size[g]++ === 0;
    if (wasEmpty || k1 < this.k1[g]! || (k1 === this.k1[g] && (k2 < this.k2[g]! || (k2 === this.k2[g] && idOf[j]! < this.id[g]!)))) this.setBest(g, j, k1, k2, cluster, version);
    return wasEmpty;
  }

  /** Work j leaves its group; returns true when the group is now empty (its entry must leave the heap). */
  remove(j: number): boolean {
    const { n, clusterCount: C, sendDur, profileOf } = this.engine;
    const g = profileOf[j]!;
    this.member[j] = 0;
    for (let c = 0; c < C; c++) if (sendDur[c * n + j]! > -Infinity) this.bySend[c]!.remove(j);
    if (this.best[g] === j) this.best[g] = -1;
    if (--this.size[g]! > 0) return false;
    this.best[g] = -1;
    this.first[g] = this.start[g]!;
    return true;
  }

  /** Group g's key is exact: its best Work is still in it and nothing was placed on its best cluster since. */
  current(g: number, clusterVersion: Int32Array): boolean {
    return this.best[g]! >= 0 && this.bestAt[g] === clusterVersion[this.bestCluster[g]!];
  }

  isEmpty(g: number): boolean {
    return this.size[g] === 0;
  }

  bestOf(g: number): number {
    return this.best[g]!;
  }

  /** The group's Work of least output time and, among those, least id (the group is not empty). */
  firstOf(g: number): number {
    const { list, member } = this;
    let k = this.first[g]!;
    while (member[list[k]!] === 0) k++;
    this.first[g] = k;
    return list[k]!;
  }

  /**
   * The best Work of group g given its first Work (firstOf), whose MCT is k1, reached on a cluster whose
   * compute end is endS: the least-id member among those whose fl(endS + o) is k1 too (they follow the
   * first in the list; the walk stops at the first member whose MCT is larger).
   */
  tiedBest(g: number, firstWork: number, endS: number, k1: number): number {
    const { list, member } = this;
    const { outDur, idOf } = this.engine;
    let best = firstWork;
    for (let k = this.place[firstWork]! + 1; k < this.start[g + 1]!; k++) {
      const j = list[k]!;
      if (member[j] === 0) continue;
      if (endS + outDur[j]! !== k1) break;
      if (idOf[j]! < idOf[best]!) best = j;
    }
    return best;
  }

  /**
   * Appends to `out` from `at` the ids (idOf) of group g's Works whose MCT, fl(endS + o), is at most `limitS`
   * (endS: the group's least compute end, its best Work's); returns where the list ends.
   */
  within(g: number, endS: number, limitS: number, out: Int32Array, at: number): number {
    const { list, member } = this;
    const { outDur, idOf } = this.engine;
    for (let k = this.first[g]!; k < this.start[g + 1]!; k++) {
      const j = list[k]!;
      if (member[j] === 0) continue;
      if (!(endS + outDur[j]! <= limitS)) break;
      out[at++] = idOf[j]!;
    }
    return at;
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

  /**
   * After a placement on cluster c (its link and first free host later): the members whose inputs would now
   * arrive after that host is free leave their groups (remove). Returns them (until the next call).
   */
  linkBoundOn(c: number): readonly number[] {
    const { n, sendDur, availReady } = this.engine;
    const heap = this.bySend[c]!;
    const linkFreeS = this.engine.linkFreeS(c);
    const firstFreeS = this.engine.firstFreeS(c);
    const left = this.leaving;
    left.length = 0;
    for (let j = heap.top(); j >= 0; j = heap.top()) {
      const cell = c * n + j;
      if (Math.max(availReady[cell]!, linkFreeS + sendDur[cell]!) <= firstFreeS) break;
      left.push(j);
      this.remove(j);
    }
    return left;
  }
}
