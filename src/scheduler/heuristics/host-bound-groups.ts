// The lists of Works that wait for a host on every cluster, one per run-time profile, ordered by output time:
// what Min-min's groups (minmin-groups.ts) and Max-min's (maxmin-groups.ts) share.
//
// A Work is "host-bound" on cluster c when its inputs are there by the time the cluster's first candidate
// host is free: then its best host there and that host's compute end E_c depend only on its run-time
// profile, and its Compl there is fl(E_c + o), o being its output time. When o is the same on every cluster
// (links of equal estimates) and the Work is host-bound on all of them, its MCT is min_c fl(E_c + o) =
// fl(E + o) with E = min_c E_c, since rounding to nearest is monotonic. Within one profile, such Works then
// rank as their o's do: a larger o never gives a smaller MCT, and Works whose o's round to the same MCT
// (fl(E + o) equal) form a run of the list. Each profile's eligible Works are listed once per plan by
// (o, Work id); the members (Works host-bound now) are marked in it. A Work leaves when one of its files gets
// planned on a cluster, when its link becomes the later of the two on a cluster after a placement there
// (linkBoundOn), or when it is placed. Only Works alone in their class (work-classes.ts) are eligible: a
// class's id changes as its Works are placed, and would move it in the list.
import { ClusterFreeTimes, hostBoundEverywhere, SendWatch, type HostBoundInputs } from './host-bound-pool.js';
import type { PlanArrays } from './plan-arrays.js';

/** What the groups need of the engine. Arrays are per Work, or per (cluster c, Work i) at c * n + i. */
export interface GroupedEngine extends HostBoundInputs {
  readonly profileOf: Int32Array;
  readonly profileCount: number;
  /** Per Work, the index in the plan's Works of the Work it stands for (ties go to the lower). */
  readonly idOf: Int32Array;
  readonly outDur: Float64Array;
  /** Per Work: 1 when it may join its profile's group (markEligible). */
  readonly eligible: Uint8Array;
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

export class HostBoundGroups {
  /** One group per profile (g). */
  readonly count: number;
  readonly member: Uint8Array;
  /** Per profile, its eligible Works by (o, id): list[start[g]] up to list[start[g + 1]]; per Work, its place there. */
  protected readonly start: Int32Array;
  protected readonly list: Int32Array;
  protected readonly place: Int32Array;
  /** Per group: its Works' count; no member lies in the list before first[g], nor after last[g]. */
  private readonly size: Int32Array;
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  /** The members with an input missing on a cluster, by send duration. */
  private readonly sends: SendWatch;
  private readonly times: ClusterFreeTimes;

  constructor(
    protected readonly engine: GroupedEngine,
    arrays: PlanArrays,
  ) {
    const { n, outDur, profileOf, idOf, eligible } = engine;
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
    this.last = arrays.int32(G);
    for (let g = 0; g < G; g++) {
      this.first[g] = this.start[g]!;
      this.last[g] = this.start[g + 1]! - 1;
    }
    this.sends = new SendWatch(engine, arrays);
    this.times = new ClusterFreeTimes(engine);
  }

  /** The clusters' free times read now, for admits until the next placement. */
  freeTimes(): ClusterFreeTimes {
    return this.times.now();
  }

  /** Work j (its summaries current) is eligible and host-bound on every cluster (`times`: from freeTimes since the last placement; else read now). */
  admits(j: number, times?: ClusterFreeTimes): boolean {
    return this.engine.eligible[j] === 1 && hostBoundEverywhere(this.engine, j, times ?? this.times.now());
  }

  /** Work j, admitted, joins its group (profileOf[j]); returns whether the group was empty. */
  protected join(j: number): boolean {
    const g = this.engine.profileOf[j]!;
    this.member[j] = 1;
    this.sends.add(j);
    if (this.place[j]! < this.first[g]!) this.first[g] = this.place[j]!;
    if (this.place[j]! > this.last[g]!) this.last[g] = this.place[j]!;
    return this.size[g]++ === 0;
  }

  /** Work j leaves its group; returns true when the group is now empty. */
  protected leave(j: number): boolean {
    const g = this.engine.profileOf[j]!;
    this.member[j] = 0;
    this.sends.remove(j);
    if (--this.size[g]! > 0) return false;
    this.first[g] = this.start[g]!;
    this.last[g] = this.start[g + 1]! - 1;
    return true;
  }

  /** Work j leaves its group (subclasses keep their own state too); true when the group is now empty. */
  remove(j: number): boolean {
    return this.leave(j);
  }

  isEmpty(g: number): boolean {
    return this.size[g] === 0;
  }

  /** How many members group g has. */
  sizeOf(g: number): number {
    return this.size[g]!;
  }

  /** The group's Work of least output time and, among those, least id (the group is not empty). */
  firstOf(g: number): number {
    const { list, member } = this;
    let k = this.first[g]!;
    while (member[list[k]!] === 0) k++;
    this.first[g] = k;
    return list[k]!;
  }

  /** The group's Work of largest output time and, among those, largest id (the group is not empty). */
  lastOf(g: number): number {
    const { list, member } = this;
    let k = this.last[g]!;
    while (member[list[k]!] === 0) k--;
    this.last[g] = k;
    return list[k]!;
  }

  /**
   * The least-id member of group g among those whose MCT, fl(endS + o), is `mctS`, the MCT of member `from`
   * (endS: the profile's least compute end, `from`'s): they lie next to `from` in the list, after it when
   * `step` is 1 (from is firstOf: Min-min), before it when -1 (from is lastOf: Max-min); the walk stops at
   * the first member whose MCT differs.
   */
  tiedBest(g: number, from: number, endS: number, mctS: number, step: 1 | -1): number {
    const { list, member } = this;
    const { outDur, idOf } = this.engine;
    let best = from;
    for (let k = this.place[from]! + step; k >= this.start[g]! && k < this.start[g + 1]!; k += step) {
      const j = list[k]!;
      if (member[j] === 0) continue;
      if (endS + outDur[j]! !== mctS) break;
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

  /**
   * After a placement on cluster c (its link and first free host later): the members whose inputs would now
   * arrive after that host is free leave their groups (remove). Returns them (until the next call).
   */
  linkBoundOn(c: number): readonly number[] {
    return this.sends.linkBoundOn(c, (j) => this.remove(j));
  }
}
