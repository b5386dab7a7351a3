// Works that wait for a host on every cluster, scored by group instead of one by one (MctEngine, for
// rules that read Compls only through their differences: the sufferage family).
//
// A Work is "host-bound" on cluster c when its inputs are there by the time the cluster's first candidate
// host is free: then its best host there and that host's end E depend only on its run-time profile, and its
// Compl is fl(E + o), o being its output time. When o is the same on every cluster (links with equal
// estimates) and the Work is host-bound everywhere, it joins the pool of its profile. In exact arithmetic all
// the Works of a pool would then score alike, and the lowest-id one would win their ties; in floating point,
// fl(E + o) = E + R where R is o rounded to a multiple of the ulp of E's binade — independent of E itself,
// unless o lies exactly halfway between two multiples (then round-half-even reads E's last bit) or E + o
// leaves E's binade. So with B the binades the profile's Es fall in, two Works whose R's differ by the same
// amount Δ in every binade of B have Compls that differ by exactly Δ on every cluster: every comparison and
// every difference of two of their Compls are equal, and so are their scores (ScoreRule.readsOnlyDifferences).
// The pool sorts its Works into such categories (the differences of their R's across B) and scores only the
// lowest-id Work of each, after every placement. It falls back to scoring each Work when an E + o could
// leave its binade (an E just below a power of two), and scores one by one the Works whose o is a halfway
// case in some binade of B ("loose"). The engine scores everything else (one by one, in its pass).
//
// The engine's pass does not keep the pool's cells up to date: a Work's are brought up to date when it is
// scored, or when it leaves the pool (its link became the later of the two, or one of its files got planned).
// Randomized rules draw among every Work whose current k1 is within a limit (MctEngine.pick): the Works of a
// category score as its lowest-id Work, just scored, so a category is all in or all out, and a large one
// within the limit is counted by id without listing it (group-id-counts.ts); the loose ones (and every Work
// of a profile scored one by one) have their own current k1 and are listed (drawWithin).
import { LazyKeyHeap } from '../lazy-key-heap.js';
import { GroupIdCounts, LARGE_SET, MAX_TREES } from './group-id-counts.js';
import type { PlanArrays } from './plan-arrays.js';

/** What the pool needs of the engine. Arrays are per Work, or per (cluster c, Work i) at c * n + i. */
export interface PooledEngine extends HostBoundInputs {
  readonly profileOf: Int32Array;
  readonly profileCount: number;
  /** Per Work, the index in the plan's Works of the Work it stands for now (ties go to the lower). */
  readonly idOf: Int32Array;
  readonly outDur: Float64Array;
  /** The best (and for rules reading them, second-best) hosts' compute ends. */
  readonly e1: Float64Array;
  readonly e2: Float64Array | undefined;
  /** Brings Work j's cells up to date on every cluster and scores it; false when it cannot be placed (dropped). */
  refresh(j: number): boolean;
  /** Drops Work j: it cannot be placed. */
  drop(j: number): void;
  ranksBefore(i: number, j: number): boolean;
  /** Randomized rules: the Works' k1, which drawWithin reads. Absent otherwise. */
  readonly drawKeys?: Float64Array;
}

/**
 * What the engine's eager mode calls on a structure that keeps host-bound Works out of its pass and scores
 * them by groups: this pool (sufferage family) or Max-min's groups (maxmin-groups.ts).
 */
export interface ScoredByGroups {
  has(j: number): boolean;
  /** The clusters' free times read now, for admits until the next placement. */
  freeTimes(): ClusterFreeTimes;
  /** Work j (its input summaries current) may join (`times`: from freeTimes since the last placement; else read now). */
  admits(j: number, times?: ClusterFreeTimes): boolean;
  add(j: number): void;
  remove(j: number): void;
  /** Work j (kept) now stands for a Work of higher id. */
  idChanged(j: number): void;
  /** After a placement on cluster c: the Works that leave, now link-bound there (until the next call). */
  linkBoundOn(c: number): readonly number[];
  /** The best-ranked of `best` (-1: none) and the kept Works, scored as needed. */
  bestWith(best: number): number;
  /**
   * Right after bestWith (randomized rules): draws among the kept Works whose current k1 is at most `limit`
   * and the ids out[0..at) (the pass's candidates, in no order), as MctEngine.pick does — rng.int(how many) is
   * the rank, by increasing id (idOf), of the one taken — and returns its id. Absent: the kept Works' k1
   * within any limit are current in the engine's array (MctEngine.pick reads them there).
   */
  drawWithin?(limit: number, out: Int32Array, at: number, rng: { int(count: number): number }): number;
}

/** What the host-bound test reads of the engine. Arrays per (cluster c, Work i) at c * n + i. */
export interface HostBoundInputs {
  readonly n: number;
  readonly clusterCount: number;
  readonly sendDur: Float64Array;
  readonly availReady: Float64Array;
  readonly summaryStale: Uint8Array;
  /** The first free time of cluster c's candidate hosts (Infinity: none). */
  firstFreeS(c: number): number;
  linkFreeS(c: number): number;
}

/**
 * Each cluster's link free time and the first free time of its candidate hosts, read at one moment. They
 * change only with a placement, so a loop that tests many Works between two placements (the start of a plan,
 * an engine's pass) reads them once rather than once per Work and cluster.
 */
export class ClusterFreeTimes {
  readonly linkS: Float64Array;
  readonly firstHostS: Float64Array;

  constructor(private readonly engine: HostBoundInputs) {
    this.linkS = new Float64Array(engine.clusterCount);
    this.firstHostS = new Float64Array(engine.clusterCount);
  }

  /** Reads them now: valid until the next placement. */
  now(): this {
    for (let c = 0; c < this.linkS.length; c++) {
      this.linkS[c] = this.engine.linkFreeS(c);
      this.firstHostS[c] = this.engine.firstFreeS(c);
    }
    return this;
  }
}

/**
 * Work j's input summaries are current and its inputs are on every cluster by the time its first candidate
 * host is free (`times`: read since the last placement).
 */
export function hostBoundEverywhere(engine: HostBoundInputs, j: number, times: ClusterFreeTimes): boolean {
  const { n, clusterCount: C, summaryStale, availReady, sendDur } = engine;
  const { linkS, firstHostS } = times;
  for (let c = 0; c < C; c++) {
    const cell = c * n + j;
    if (summaryStale[cell] === 1) return false;
    // The engine's test (MctEngine.updateCells: readyS <= the front's first free time).
    if (!(Math.max(availReady[cell]!, linkS[c]! + sendDur[cell]!) <= firstHostS[c]!)) return false;
  }
  return true;
}

/** SendWatch's states of a (cluster, Work) cell. */
const OUT = 0;
const WATCHED = 1;
const LEFT = 2;

/**
 * Per cluster, the kept host-bound Works with an input missing there, longest send first (then lowest
 * index): after a placement there (its link and first free host later), those whose inputs would now arrive
 * after that host is free are found from the top (linkBoundOn). Nearly every Work joins and leaves without
 * being read from the top, so the heaps order themselves only when read (LazyKeyHeap), and a Work that
 * leaves stays in them, marked, until it comes to the top (or joins again).
 */
export class SendWatch {
  private readonly bySend: LazyKeyHeap[];
  /** Per (cluster c, Work j) at c * n + j, minus j's send duration there while it is watched (the heaps' keys). */
  private readonly minusSend: Float64Array;
  /** Per (cluster, Work) cell: OUT, WATCHED, or LEFT (still in the cluster's heap, no longer watched). */
  private readonly state: Uint8Array;
  private readonly leaving: number[] = [];

  constructor(
    private readonly engine: HostBoundInputs,
    arrays: PlanArrays,
  ) {
    const { n, clusterCount: C } = engine;
    const minusSend = (this.minusSend = arrays.float64(C * n));
    this.state = arrays.uint8(C * n, OUT);
    this.bySend = Array.from({ length: C }, (_, c) => new LazyKeyHeap(minusSend, c * n, arrays.int32(n), arrays.int32(n)));
  }

  /** Work j's send durations must stay as they are until it is removed. */
  add(j: number): void {
    const { n, clusterCount: C, sendDur } = this.engine;
    for (let c = 0; c < C; c++) {
      const cell = c * n + j;
      const sendS = sendDur[cell]!;
      if (!(sendS > -Infinity)) continue;
      if (this.state[cell] === LEFT) {
        // Back before its mark came to the top: kept where it is, moved only if its key changed.
        if (this.minusSend[cell] !== -sendS) {
          this.minusSend[cell] = -sendS;
          this.bySend[c]!.update(j);
        }
      } else {
        this.minusSend[cell] = -sendS;
        this.bySend[c]!.push(j);
      }
      this.state[cell] = WATCHED;
    }
  }

  remove(j: number): void {
    const { n, clusterCount: C } = this.engine;
    for (let cell = j; cell < C * n; cell += n) if (this.state[cell] === WATCHED) this.state[cell] = LEFT;
  }

  /** The watched Works now link-bound on cluster c, each given to `leave` (which must remove it); returns them (until the next call). */
  linkBoundOn(c: number, leave: (j: number) => void): readonly number[] {
    const { n, sendDur, availReady } = this.engine;
    const heap = this.bySend[c]!;
    const linkFreeS = this.engine.linkFreeS(c);
    const firstFreeS = this.engine.firstFreeS(c);
    const left = this.leaving;
    left.length = 0;
    for (let j = heap.top(); j >= 0; j = heap.top()) {
      const cell = c * n + j;
      if (this.state[cell] === LEFT) {
        heap.remove(j);
        this.state[cell] = OUT;
        continue;
      }
      if (Math.max(availReady[cell]!, linkFreeS + sendDur[cell]!) <= firstFreeS) break;
      left.push(j);
      leave(j);
    }
    return left;
  }
}

/** One profile's pool: its Works, sorted into categories for the binades they were sorted for. */
interface ProfileGroup {
  /** Its Works, in no particular order (HostBoundPool.slot holds each one's position). */
  readonly members: number[];
  /** The binades' lower powers of two, increasing, that the categories are for (none yet: sorted is false). */
  readonly bases: Float64Array;
  baseCount: number;
  sorted: boolean;
  /** Per key (categoryKey; not kept for one binade, where there is one key), its category's index in categories. */
  readonly categoryByKey: Map<number | string, number>;
  readonly categories: LazyKeyHeap[];
  /** Per category, its tree in the pool's counts (-1: none). */
  readonly trees: number[];
  /** Works whose output time is a halfway case in one of the binades: scored one by one. */
  readonly loose: number[];
  /** The last bestWith scored every Work of the group one by one (an end near a power of two). */
  scoredEach: boolean;
}

export class HostBoundPool implements ScoredByGroups {
  /** Per Work: its output time is the same on every cluster (and not negative). */
  private readonly uniform: Uint8Array;
  /** Some Work's is: without one, the pool stays empty (links of different estimates) and is left out. */
  readonly anyUniform: boolean;
  private readonly inPool: Uint8Array;
  /** Per Work, its position in its group's members. */
  private readonly slot: Int32Array;
  /** Per profile, the largest output time of its uniform Works. */
  private readonly maxOutDur: Float64Array;
  private readonly groups: ProfileGroup[];
  /** The pool's Works with an input missing on a cluster, by send duration. */
  private readonly sends: SendWatch;
  /** Per Work, its category's index in its group's categories (-1: not in one). */
  private readonly categoryOf: Int32Array;
  private readonly categoryPositions: Int32Array;
  /** Per Work in a category, idOf as a double: the categories' keys. */
  private readonly idKey: Float64Array;
  /** Scratch: the binades of the profile being scored. */
  private readonly bases: Float64Array;
  private readonly times: ClusterFreeTimes;
  /** The members of large categories counted by id, from the plan's first draw on (randomized rules). */
  private counts: GroupIdCounts | undefined;
  /** Scratch of drawWithin: the trees of the categories within the limit. */
  private readonly treesWithin = new Int32Array(MAX_TREES);

  constructor(
    private readonly engine: PooledEngine,
    private readonly arrays: PlanArrays,
  ) {
    const { n, clusterCount: C, outDur, profileOf } = engine;
    this.uniform = arrays.uint8(n);
    this.inPool = arrays.uint8(n);
    this.slot = arrays.int32(n);
    this.maxOutDur = arrays.float64(engine.profileCount);
    let anyUniform = false;
    for (let j = 0; j < n; j++) {
      const o = outDur[j]!;
      let same = o >= 0 && o < Infinity;
      for (let c = 1; c < C && same; c++) same = outDur[c * n + j] === o;
      if (!same) continue;
      this.uniform[j] = 1;
      anyUniform = true;
      const p = profileOf[j]!;
      if (o > this.maxOutDur[p]!) this.maxOutDur[p] = o;
    }
    this.anyUniform = anyUniform;
    this.bases = new Float64Array(2 * C);
    this.groups = Array.from({ length: engine.profileCount }, () => ({
      members: [],
      bases: new Float64Array(2 * C),
      baseCount: 0,
      sorted: false,
      categoryByKey: new Map<number | string, number>(),
      categories: [],
      trees: [],
      loose: [],
      scoredEach: false,
    }));
    this.sends = new SendWatch(engine, arrays);
    this.times = new ClusterFreeTimes(engine);
    this.categoryOf = arrays.int32(n, -1);
    this.categoryPositions = arrays.int32(n);
    this.idKey = arrays.float64(n);
  }

  has(j: number): boolean {
    return this.inPool[j] === 1;
  }

  freeTimes(): ClusterFreeTimes {
    return this.times.now();
  }

  /** Work j (its input summaries current) is host-bound on every cluster and its output time the same on all. */
  admits(j: number, times?: ClusterFreeTimes): boolean {
    return this.uniform[j] === 1 && hostBoundEverywhere(this.engine, j, times ?? this.times.now());
  }

  add(j: number): void {
    const profileOf = this.engine.profileOf;
    this.inPool[j] = 1;
    this.sends.add(j);
    const group = this.groups[profileOf[j]!]!;
    this.slot[j] = group.members.length;
    group.members.push(j);
    if (group.sorted) this.sort(group, j);
  }

  remove(j: number): void {
    const profileOf = this.engine.profileOf;
    this.inPool[j] = 0;
    this.sends.remove(j);
    const group = this.groups[profileOf[j]!]!;
    const last = group.members.pop()!;
    if (last !== j) {
      group.members[this.slot[j]!] = last;
      this.slot[last] = this.slot[j]!;
    }
    this.counts?.remove(j);
    const k = this.categoryOf[j]!;
    if (k >= 0) {
      group.categories[k]!.remove(j);
      this.categoryOf[j] = -1;
    } else if (group.loose.length > 0) {
      const at = group.loose.indexOf(j);
      if (at >= 0) group.loose.splice(at, 1);
    }
  }

  /** Work j (in the pool) now stands for a Work of higher id. */
  idChanged(j: number): void {
    // Randomized rules (the only ones that count) make every Work its own class: ids never change.
    if (this.counts !== undefined) throw new Error(`internal error: pooled Work ${j} counted by id stands for another Work`);
    const k = this.categoryOf[j]!;
    if (k < 0) return;
    this.idKey[j] = this.engine.idOf[j]!;
    this.groups[this.engine.profileOf[j]!]!.categories[k]!.update(j);
  }

  /**
   * After a placement on cluster c (its link and first free host later): the Works whose inputs would now
   * arrive after that host is free leave the pool. Returns them (until the next call); their cells are stale.
   */
  linkBoundOn(c: number): readonly number[] {
    return this.sends.linkBoundOn(c, (j) => this.remove(j));
  }

  /** The best-ranked of `best` (-1: none) and the pool's Works, every pooled Work's score being current. */
  bestWith(best: number): number {
    for (const group of this.groups) {
      if (group.members.length > 0) best = this.bestOfGroup(group, best);
    }
    return best;
  }

  /**
   * The draw among the pooled Works whose current k1 is within `limit` and the ids out[0..at)
   * (ScoredByGroups.drawWithin; randomized rules). A category within the limit is counted whole when it is a
   * large one (a tree made for it at its first draw, kept through joins and leaves), else listed into `out`.
   */
  drawWithin(limit: number, out: Int32Array, at: number, rng: { int(count: number): number }): number {
    const { drawKeys: keys, idOf, n } = this.engine;
    const counts = (this.counts ??= new GroupIdCounts(idOf, n, this.arrays));
    const within = this.treesWithin;
    let treeCount = 0;
    let counted = 0;
    for (const group of this.groups) {
      if (group.members.length === 0) continue;
      if (group.scoredEach) {
        for (const j of group.members) if (keys![j]! <= limit) out[at++] = idOf[j]!;
        continue;
      }
      // Every Work of a category scores as its top one, scored by bestWith: all of them or none.
      for (let k = 0; k < group.categories.length; k++) {
        const heap = group.categories[k]!;
        const j = heap.top();
        if (j < 0 && group.trees[k]! >= 0) {
          // Emptied: its tree counts no Work, and may serve another category.
          counts.freeTree(group.trees[k]!);
          group.trees[k] = -1;
        }
        if (j < 0 || !(keys![j]! <= limit)) continue;
        if (group.trees[k]! < 0 && heap.size >= LARGE_SET) group.trees[k] = counts.newTree(heap.size, (slot) => heap.at(slot));
        if (group.trees[k]! >= 0) {
          within[treeCount++] = group.trees[k]!;
          counted += heap.size;
          continue;
        }
        for (let slot = heap.size - 1; slot >= 0; slot--) out[at++] = idOf[heap.at(slot)]!;
      }
      for (const j of group.loose) if (keys![j]! <= limit) out[at++] = idOf[j]!;
    }
    return counts.draw(within, treeCount, counted, out, at, rng);
  }

  private bestOfGroup(group: ProfileGroup, best: number): number {
    const engine = this.engine;
    // The profile's ends, from any of its Works.
    const probe = group.members[0]!;
    if (!engine.refresh(probe)) {
      for (let k = group.members.length - 1; k >= 0; k--) this.dropOne(group.members[k]!);
      return best;
    }
    const count = this.binades(probe);
    group.scoredEach = count < 0;
    if (count < 0) return this.scoreEach(group.members, best);
    if (!group.sorted || !sameBases(group.bases, group.baseCount, this.bases, count)) this.sortAll(group, count);
    for (const heap of group.categories) {
      const j = heap.top();
      if (j < 0) continue;
      if (j !== probe && !engine.refresh(j)) {
        // Every Work of the category scores as j does.
        while (heap.size > 0) this.dropOne(heap.top());
        continue;
      }
      if (best < 0 || engine.ranksBefore(j, best)) best = j;
    }
    return this.scoreEach(group.loose, best);
  }

  /** Scores each of `works` (pooled) on its own. */
  private scoreEach(works: number[], best: number): number {
    // Backwards: a Work dropped leaves the list, and the last one takes its place.
    for (let k = works.length - 1; k >= 0; k--) {
      const j = works[k]!;
      if (!this.engine.refresh(j)) this.dropOne(j);
      else if (best < 0 || this.engine.ranksBefore(j, best)) best = j;
    }
    return best;
  }

  private dropOne(j: number): void {
    this.remove(j);
    this.engine.drop(j);
  }

  /**
   * Into this.bases, the binades (their lower powers of two, increasing) of the profile's finite ends, read
   * from Work `probe`'s fresh cells; returns how many, or -1 when some E + o could leave its binade (or an
   * end is not a normal positive number).
   */
  private binades(probe: number): number {
    const { n, clusterCount: C, e1, e2, profileOf } = this.engine;
    const maxOut = this.maxOutDur[profileOf[probe]!]!;
    const bases = this.bases;
    let count = 0;
    for (let k = 0; k < (e2 === undefined ? C : 2 * C); k++) {
      const endS = k < C ? e1[k * n + probe]! : e2![(k - C) * n + probe]!;
      if (endS === Infinity) continue;
      if (!(endS >= 2 ** -1000)) return -1;
      const base = binadeBase(endS);
      if (!(endS + maxOut < 2 * base)) return -1;
      let at = count;
      while (at > 0 && bases[at - 1]! > base) at--;
      if (at > 0 && bases[at - 1] === base) continue;
      bases.copyWithin(at + 1, at, count);
      bases[at] = base;
      count++;
    }
    return count;
  }

  /** Sorts every Work of the group into its category for the binades in this.bases. */
  private sortAll(group: ProfileGroup, count: number): void {
    group.bases.set(this.bases.subarray(0, count));
    group.baseCount = count;
    group.sorted = true;
    const counts = this.counts;
    if (counts !== undefined) {
      for (const j of group.members) counts.remove(j);
      for (const t of group.trees) if (t >= 0) counts.freeTree(t);
    }
    group.categories.length = 0;
    group.trees.length = 0;
    group.categoryByKey.clear();
    group.loose.length = 0;
    for (const j of group.members) {
      this.categoryOf[j] = -1;
      this.sort(group, j);
    }
  }

  /** Puts pooled Work j into its category for the group's binades (or with the loose ones). */
  private sort(group: ProfileGroup, j: number): void {
    const key = categoryKey(group.bases, group.baseCount, this.engine.outDur[j]!);
    if (key === undefined) {
      group.loose.push(j);
      return;
    }
    // With at most one binade every Work has the same key: one category.
    let k = group.baseCount <= 1 ? (group.categories.length > 0 ? 0 : undefined) : group.categoryByKey.get(key);
    if (k === undefined) {
      k = group.categories.length;
      if (group.baseCount > 1) group.categoryByKey.set(key, k);
      group.categories.push(new LazyKeyHeap(this.idKey, 0, this.categoryPositions));
      group.trees.push(-1);
    }
    const heap = group.categories[k]!;
    this.idKey[j] = this.engine.idOf[j]!;
    heap.push(j);
    this.categoryOf[j] = k;
    if (group.trees[k]! >= 0) this.counts!.add(j, group.trees[k]!);
  }
}

/**
 * The category of a Work of output time o among those of its profile for the binades bases[0..count): the
 * differences of its R's in each binade from its R in the first (a number for two binades, a string for
 * more, none for one), or undefined when o is a halfway case in one of them (the Work is loose).
 */
function categoryKey(bases: Float64Array, count: number, o: number): number | string | undefined {
  if (count === 0) return 0;
  const first = roundedIn(bases[0]!, o);
  if (first === undefined) return undefined;
  if (count === 1) return 0;
  if (count === 2) {
    const rounded = roundedIn(bases[1]!, o);
    return rounded === undefined ? undefined : rounded - first;
  }
  let key = '';
  for (let b = 1; b < count; b++) {
    const rounded = roundedIn(bases[b]!, o);
    if (rounded === undefined) return undefined;
    key += `${rounded - first} `;
  }
  return key;
}

function sameBases(a: Float64Array, aCount: number, b: Float64Array, bCount: number): boolean {
  if (aCount !== bCount) return false;
  for (let k = 0; k < aCount; k++) if (a[k] !== b[k]) return false;
  return true;
}

// A double's bits, to read its binade (the high word holds the sign and the exponent).
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** The largest power of two not above x (x positive, normal, finite): x with its mantissa cleared. */
export function binadeBase(x: number): number {
  bits[0] = x;
  words[HIGH] = words[HIGH]! & 0xfff00000;
  words[1 - HIGH] = 0;
  return bits[0]!;
}

/**
 * R: fl(E + o) − E for every E of the binade starting at `base` (E + o staying in it), or undefined when it
 * depends on E (o halfway between two multiples of the binade's ulp: round-half-even reads E's last bit).
 */
export function roundedIn(base: number, o: number): number | undefined {
  const ulp = base * 2 ** -52;
  const even = base + o - base;
  const odd = base + ulp + o - (base + ulp);
  return even === odd ? even : undefined;
}
