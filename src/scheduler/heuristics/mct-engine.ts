// The fill loop shared by every estimate-based heuristic (H1–H9, XSufferage): repeatedly score every
// unplaced Work from its completion times, take the best-ranked Work, commit it to the host its rule names,
// until every host is full (chart.hasRoom) or no Work can be placed. What differs between heuristics is
// the ScoreRule; this file only makes the loop fast without changing its result.
//
// Why it is exact yet fast (a naive loop recomputing Compl for every Work × host after each assignment gives
// the same assignments; test/scheduler/heuristics-reference.test.ts checks this on random instances):
//  - Hosts of one cluster with the same architecture and availability ("a class") differ only by their free
//    time, and Compl grows with it, so only the two earliest-free hosts of a class (a heap) can be a Work's
//    best or second-best host in that cluster. Per Work and cluster we keep the two best (Compl, host).
//  - An assignment on cluster c changes nothing in other clusters; in c it can only make Compl larger
//    (busier host and link, one host perhaps full and dropped under 'with-room'), except for Works that read a file the assignment newly
//    puts on c's link. So only those Works, and the Works whose score the rule says depends on c
//    (watch1/watch2: e.g. the cluster of their best host) need a new score; the others keep theirs.
//  - Stale clusters are lower bounds (Compl only grows), so a Work's stale cluster is only recomputed when
//    its old best Compl is not above the largest Compl the score relies on (TaskScore.boundS).
//  - Min-min (lowerBoundKeys): a Work's old MCT is a lower bound of its new one, so Works are recomputed
//    only when they reach the top of the heap (lazy greedy); the top is taken only once it is up to date.
//  - A Work's missing-input cost on a cluster (InputSummary) changes only when one of its files is newly
//    planned there, so it is cached and Compl is then O(1) per candidate host.
//  - Each cluster's candidate hosts (two per class) are copied into flat arrays once per change of the cluster
//    (snapshot), and each Work's compute duration per class is computed once, so refreshing a cell reads no
//    heap and no host object. Same arithmetic as GanttChart.computeEndS, so the same floating-point values.
//  - After a commit on cluster c, a watcher whose cell for c was up to date and whose two best hosts there are
//    neither the host placed on nor affected by the busier link (they waited for the host, not the inputs)
//    keeps its cell and score unchanged (keepsCell); every other host of c can only rank worse than before.
import type { WorkSpec } from '../../model/application.js';
import type { ChartHost, GanttChart, InputSummary } from '../gantt.js';
import { IndexedHeap } from '../indexed-heap.js';
import type { PlanContext } from './heuristic.js';

/** A Work's rank (lower first: k1, then k2, then Work id) and where it would go. */
export interface TaskScore {
  k1: number;
  k2: number;
  /** Host index the Work goes to if chosen; -1 when it cannot be placed. */
  host: number;
  /** Clusters whose changes can alter this score (-1: none); ignored when the rule watches all. */
  watch1: number;
  watch2: number;
  /** The largest Compl the score depends on: a cluster whose best Compl is above it cannot change the score. */
  boundS: number;
}

export interface ScoreRule {
  /** True when the score depends on every cluster's MCT (Extended Sufferage, Sufferage II). */
  readonly watchesAll: boolean;
  /**
   * True when k1 can only grow as other Works are placed (Min-min: k1 = MCT): a Work whose watched cluster
   * changed keeps its old key as a lower bound and is only recomputed when it reaches the top of the heap.
   */
  readonly lowerBoundKeys?: boolean;
  /**
   * True when the score reads each cluster's second-best host (compl2/end2/host2: plain Sufferage, whose
   * second-best host may sit in the same cluster as the best). The others read only each cluster's best
   * host, which lets the engine skip hosts that cannot be anyone's best (see snapshot()).
   */
  readonly readsSecondHost?: boolean;
  score(view: ClusterBests, out: TaskScore): void;
  /**
   * Randomized variants: the candidates are the Works whose k1 ≤ threshold(k1 of the best Work); one is
   * drawn uniformly (rng.int over the candidates sorted by Work id). Absent: the best Work is taken.
   */
  readonly threshold?: (bestK1: number, nowS: number, tolerance: number) => number;
}

/** One Work's two best (Compl, endS, host) per cluster, as rules read them. host -1: no candidate. */
export class ClusterBests {
  base = 0;
  constructor(
    readonly clusterCount: number,
    private readonly chart: GanttChart,
    readonly c1: Float64Array,
    readonly e1: Float64Array,
    readonly h1: Int32Array,
    private readonly c2: Float64Array,
    private readonly e2: Float64Array,
    private readonly h2: Int32Array,
  ) {}
  compl1(c: number): number {
    return this.c1[this.base + c]!;
  }
  end1(c: number): number {
    return this.e1[this.base + c]!;
  }
  host1(c: number): number {
    return this.h1[this.base + c]!;
  }
  compl2(c: number): number {
    return this.c2[this.base + c]!;
  }
  end2(c: number): number {
    return this.e2[this.base + c]!;
  }
  host2(c: number): number {
    return this.h2[this.base + c]!;
  }
  /** Host ranking of the chart: (Compl, endS, host free time, host order); no host (-1) ranks last. */
  less(complA: number, endA: number, hostA: number, complB: number, endB: number, hostB: number): boolean {
    return hostRankLess(this.chart, complA, endA, hostA, complB, endB, hostB);
  }
}

export function hostRankLess(chart: GanttChart, complA: number, endA: number, hostA: number, complB: number, endB: number, hostB: number): boolean {
  if (hostB < 0) return hostA >= 0;
  if (hostA < 0) return false;
  if (complA !== complB) return complA < complB;
  if (endA !== endB) return endA < endB;
  const freeA = chart.hostFreeS(hostA);
  const freeB = chart.hostFreeS(hostB);
  if (freeA !== freeB) return freeA < freeB;
  return hostA < hostB;
}

export class MctEngine {
  private readonly chart: GanttChart;
  private readonly works: readonly WorkSpec[];
  private readonly n: number;
  private readonly C: number;
  // Host classes: per cluster, heaps of the candidate hosts (all, or the non-full ones under 'with-room') with
  // equal (arch, availability), by (free, order).
  private readonly classesOf: IndexedHeap[][];
  private readonly classOfHost: IndexedHeap[];
  // Per cluster, the candidate hosts (the two earliest-free of each class) as flat arrays, rebuilt only when
  // the cluster changed (snapVersion), so refreshing a cell does not walk the heaps.
  private readonly snapHost: Int32Array[];
  private readonly snapFree: Float64Array[];
  private readonly snapClass: Int32Array[];
  /** Architecture and availability of each global class. */
  private readonly classArch: Int32Array;
  private readonly classAvailability: Float64Array;
  /** snapshot() scratch: the fastest availability seen so far per architecture. */
  private readonly fastestOfArch: Float64Array;
  /** Global class index of each of cluster c's heaps (classesOf[c]). */
  private readonly heapClass: Int32Array[];
  private readonly snapLen: Int32Array;
  private readonly snapVersion: Int32Array;
  /** Estimated compute duration of Work i on class k (global class index), at i * classCount + k. */
  private readonly dur: Float64Array;
  private readonly classCount: number;
  // Per (work i, cluster c) at index i*C + c.
  private readonly c1: Float64Array;
  private readonly e1: Float64Array;
  private readonly h1: Int32Array;
  private readonly c2: Float64Array;
  private readonly e2: Float64Array;
  private readonly h2: Int32Array;
  private readonly outDur: Float64Array;
  private readonly version: Int32Array;
  private readonly summaryStale: Uint8Array;
  private readonly missing: Int32Array;
  private readonly sendDur: Float64Array;
  private readonly availReady: Float64Array;
  /** The input-ready time the cell's Compl values were computed from. */
  private readonly readyAt: Float64Array;
  private readonly clusterVersion: Int32Array;
  // Per work.
  private readonly k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly target: Int32Array;
  private readonly w1: Int32Array;
  private readonly w2: Int32Array;
  private readonly active: Uint8Array;
  private readonly mark: Int32Array;
  private markStamp = 0;
  private readonly tasks: IndexedHeap;
  // Per cluster, the Works watching it as entries 2 * work + slot (slot 0: watch1, 1: watch2), unordered;
  // watchPos[entry] is the entry's index in its list (swap-remove).
  private readonly watchList: Int32Array[];
  private readonly watchLen: Int32Array;
  private readonly watchPos: Int32Array;
  private readonly readers = new Map<number, number[]>();
  private readonly view: ClusterBests;
  private readonly scratch: TaskScore = { k1: 0, k2: 0, host: -1, watch1: -1, watch2: -1, boundS: Infinity };
  private readonly summary: InputSummary = { missingCount: 0, sendDurS: 0, availableReadyS: 0 };
  /** options.hostCandidates 'all': a host that becomes full stays in its class and can still be chosen. */
  private readonly fullHostsCount: boolean;

  constructor(
    private readonly ctx: PlanContext,
    private readonly rule: ScoreRule,
  ) {
    const chart = (this.chart = ctx.chart);
    this.fullHostsCount = (ctx.hostCandidates ?? 'all') === 'all';
    const works = (this.works = ctx.works);
    const n = (this.n = works.length);
    const C = (this.C = chart.clusters.length);
    const H = chart.hosts.length;

    const hostPositions = new Int32Array(H).fill(-1);
    const lessHost = (a: number, b: number): boolean => {
      const fa = chart.hostFreeS(a);
      const fb = chart.hostFreeS(b);
      return fa < fb || (fa === fb && a < b);
    };
    this.classesOf = chart.clusters.map(() => []);
    this.classOfHost = new Array<IndexedHeap>(H);
    const byKey = new Map<string, IndexedHeap>();
    const classIndex = new Map<IndexedHeap, number>();
    const classHosts: ChartHost[] = [];
    chart.hosts.forEach((host, index) => {
      const key = `${host.cluster}|${host.arch}|${host.availability}`;
      let heap = byKey.get(key);
      if (heap === undefined) {
        heap = new IndexedHeap(lessHost, hostPositions);
        byKey.set(key, heap);
        classIndex.set(heap, classHosts.length);
        classHosts.push(host);
        this.classesOf[host.cluster]!.push(heap);
      }
      this.classOfHost[index] = heap;
      if (this.fullHostsCount || !chart.isFull(index)) heap.push(index);
    });
    const K = (this.classCount = classHosts.length);
    this.classArch = Int32Array.from(classHosts, (host) => host.arch);
    this.classAvailability = Float64Array.from(classHosts, (host) => host.availability);
    this.fastestOfArch = new Float64Array(Math.max(0, ...this.classArch) + 1);
    this.snapHost = this.classesOf.map((heaps) => new Int32Array(2 * heaps.length));
    this.snapFree = this.classesOf.map((heaps) => new Float64Array(2 * heaps.length));
    this.snapClass = this.classesOf.map((heaps) => new Int32Array(2 * heaps.length));
    this.heapClass = this.classesOf.map((heaps) => Int32Array.from(heaps, (heap) => classIndex.get(heap)!));
    this.snapLen = new Int32Array(C);
    this.snapVersion = new Int32Array(C).fill(-1);
    this.dur = new Float64Array(n * K);
    for (let i = 0; i < n; i++) {
      const work = works[i]!;
      // Exactly GanttChart.computeEndS's duration term.
      for (let k = 0; k < K; k++) this.dur[i * K + k] = (work.estRunTimeS[classHosts[k]!.arch] ?? Infinity) / classHosts[k]!.availability;
    }

    const cells = n * C;
    this.c1 = new Float64Array(cells);
    this.e1 = new Float64Array(cells);
    this.h1 = new Int32Array(cells);
    this.c2 = new Float64Array(cells);
    this.e2 = new Float64Array(cells);
    this.h2 = new Int32Array(cells);
    this.outDur = new Float64Array(cells);
    this.version = new Int32Array(cells).fill(-1);
    this.summaryStale = new Uint8Array(cells).fill(1);
    this.missing = new Int32Array(cells);
    this.sendDur = new Float64Array(cells);
    this.availReady = new Float64Array(cells);
    this.readyAt = new Float64Array(cells);
    this.clusterVersion = new Int32Array(C);
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.target = new Int32Array(n).fill(-1);
    this.w1 = new Int32Array(n).fill(-1);
    this.w2 = new Int32Array(n).fill(-1);
    this.active = new Uint8Array(n);
    this.mark = new Int32Array(n);
    this.watchList = chart.clusters.map(() => new Int32Array(2 * n));
    this.watchLen = new Int32Array(C);
    this.watchPos = new Int32Array(2 * n);
    this.view = new ClusterBests(C, chart, this.c1, this.e1, this.h1, this.c2, this.e2, this.h2);
    const k1 = this.k1;
    const k2 = this.k2;
    this.tasks = new IndexedHeap((a, b) => k1[a]! < k1[b]! || (k1[a] === k1[b] && (k2[a]! < k2[b]! || (k2[a] === k2[b] && a < b))), n);

    for (let i = 0; i < n; i++) {
      const work = works[i]!;
      for (let c = 0; c < C; c++) this.outDur[i * C + c] = chart.outputDurationS(work, c);
      for (const fileId of new Set(work.inputs)) {
        let list = this.readers.get(fileId);
        if (list === undefined) this.readers.set(fileId, (list = []));
        list.push(i);
      }
    }
  }

  run(): void {
    const { chart, works, C } = this;
    for (let i = 0; i < this.n; i++) {
      this.active[i] = 1;
      this.rescore(i);
    }
    while (this.tasks.size > 0 && chart.hasRoom()) {
      const i = this.pick();
      if (i < 0) break;
      const host = this.target[i]!;
      const c = chart.hosts[host]!.cluster;
      const row = chart.commit(works[i]!, host);
      this.deactivate(i);
      const hostHeap = this.classOfHost[host]!;
      if (!this.fullHostsCount && chart.isFull(host)) hostHeap.remove(host);
      else hostHeap.update(host);
      this.clusterVersion[c]!++;

      const stamp = ++this.markStamp;
      const dirty: number[] = [];
      for (const fileId of row.sentFiles) {
        for (const j of this.readers.get(fileId) ?? []) {
          if (this.active[j] === 0) continue;
          this.summaryStale[j * C + c] = 1;
          if (this.mark[j] !== stamp) {
            this.mark[j] = stamp;
            dirty.push(j);
          }
        }
      }
      if (this.rule.lowerBoundKeys === true) {
        // Watchers keep their (lower-bound) keys; pick() brings them up to date when they surface.
      } else if (this.rule.watchesAll) {
        for (let j = 0; j < this.n; j++) {
          if (this.active[j] === 1 && this.mark[j] !== stamp) dirty.push(j);
        }
      } else {
        const list = this.watchList[c]!;
        for (let k = 0, len = this.watchLen[c]!; k < len; k++) {
          const j = list[k]! >> 1;
          if (this.mark[j] !== stamp) {
            this.mark[j] = stamp;
            if (!this.keepsCell(j * C + c, c, host)) dirty.push(j);
          }
        }
      }
      for (const j of dirty) this.rescore(j);
    }
  }

  /** Ranks Work i again from up-to-date clusters (or drops it if it cannot be placed). */
  private rescore(i: number): void {
    const C = this.C;
    const base = i * C;
    for (let c = 0; c < C; c++) {
      const cell = base + c;
      if (this.summaryStale[cell] === 1 || (this.rule.watchesAll && this.version[cell] !== this.clusterVersion[c])) this.refreshCell(i, c, cell);
    }
    // The clusters the previous score watched are refreshed anyway once scored; doing it first saves a pass.
    const w1 = this.w1[i]!;
    const w2 = this.w2[i]!;
    if (w1 >= 0 && this.version[base + w1] !== this.clusterVersion[w1]) this.refreshCell(i, w1, base + w1);
    if (w2 >= 0 && this.version[base + w2] !== this.clusterVersion[w2]) this.refreshCell(i, w2, base + w2);
    const out = this.scratch;
    this.view.base = base;
    for (;;) {
      out.host = -1;
      out.watch1 = -1;
      out.watch2 = -1;
      out.boundS = Infinity;
      this.rule.score(this.view, out);
      let refreshed = false;
      for (let c = 0; c < C; c++) {
        const cell = base + c;
        if (this.version[cell] === this.clusterVersion[c]) continue;
        if (c === out.watch1 || c === out.watch2 || out.host < 0 || !(this.c1[cell]! > out.boundS)) {
          this.refreshCell(i, c, cell);
          refreshed = true;
        }
      }
      if (!refreshed) break;
    }
    if (out.host < 0 || Number.isNaN(out.k1) || Number.isNaN(out.k2)) {
      this.deactivate(i);
      return;
    }
    this.k1[i] = out.k1;
    this.k2[i] = out.k2;
    this.target[i] = out.host;
    if (this.tasks.has(i)) this.tasks.update(i);
    else this.tasks.push(i);
    if (!this.rule.watchesAll && (this.w1[i] !== out.watch1 || this.w2[i] !== out.watch2)) {
      this.unwatch(i);
      this.w1[i] = out.watch1;
      this.w2[i] = out.watch2;
      if (out.watch1 >= 0) this.watch(2 * i, out.watch1);
      if (out.watch2 >= 0) this.watch(2 * i + 1, out.watch2);
    }
  }

  /**
   * After a commit on `placedHost` in cluster c, whether the cell (fresh just before it) keeps exactly its two
   * best (Compl, endS, host): then it is marked fresh and the Work keeps its score. That holds when neither of
   * its two best hosts is the one placed on and both already waited for their host rather than for the
   * inputs, even with the link now busier (max(free, inputReady) unchanged). Every other candidate of c can
   * only rank worse than before, so it cannot overtake them: the placed host is busier, and a host entering a
   * class's two earliest-free ranks after the placed host of its class did.
   */
  private keepsCell(cell: number, c: number, placedHost: number): boolean {
    const version = this.clusterVersion[c]!;
    if (this.version[cell] !== version - 1 || this.summaryStale[cell] === 1) return false;
    const h1 = this.h1[cell]!;
    // Rules that read only the best host (h2 is -1 for them) keep the cell when the best host is unchanged.
    const h2 = this.h2[cell]!;
    if (h1 < 0 || h1 === placedHost || h2 === placedHost) return false;
    const chart = this.chart;
    const oldReadyS = this.readyAt[cell]!;
    const availReadyS = this.availReady[cell]!;
    const readyS = this.missing[cell] === 0 ? availReadyS : Math.max(availReadyS, chart.linkFreeS(c) + this.sendDur[cell]!);
    if (readyS !== oldReadyS) {
      const free1 = chart.hostFreeS(h1);
      if (Math.max(free1, readyS) !== Math.max(free1, oldReadyS)) return false;
      if (h2 >= 0) {
        const free2 = chart.hostFreeS(h2);
        if (Math.max(free2, readyS) !== Math.max(free2, oldReadyS)) return false;
      }
    }
    this.readyAt[cell] = readyS;
    this.version[cell] = version;
    return true;
  }

  /** A lower-bound key is out of date: a cluster its score relies on changed since it was computed. */
  private outdated(i: number): boolean {
    const C = this.C;
    const w1 = this.w1[i]!;
    const w2 = this.w2[i]!;
    return (w1 >= 0 && this.version[i * C + w1] !== this.clusterVersion[w1]) || (w2 >= 0 && this.version[i * C + w2] !== this.clusterVersion[w2]);
  }

  private refreshCell(i: number, c: number, cell: number): void {
    const chart = this.chart;
    const work = this.works[i]!;
    const summary = this.summary;
    if (this.summaryStale[cell] === 1) {
      chart.inputSummary(work, c, summary);
      this.missing[cell] = summary.missingCount;
      this.sendDur[cell] = summary.sendDurS;
      this.availReady[cell] = summary.availableReadyS;
      this.summaryStale[cell] = 0;
    } else {
      summary.missingCount = this.missing[cell]!;
      summary.sendDurS = this.sendDur[cell]!;
      summary.availableReadyS = this.availReady[cell]!;
    }
    const readyS = chart.inputReadyS(summary, c);
    const outDurS = this.outDur[cell]!;
    if (this.snapVersion[c] !== this.clusterVersion[c]) this.snapshot(c);
    const hosts = this.snapHost[c]!;
    const frees = this.snapFree[c]!;
    const classes = this.snapClass[c]!;
    const len = this.snapLen[c]!;
    const dur = this.dur;
    const durBase = i * this.classCount;
    if (this.rule.readsSecondHost !== true) {
      this.refreshBest(c, cell, readyS, outDurS, hosts, frees, classes, len, durBase);
      return;
    }
    // Same ranking as hostRankLess: (Compl, endS, free time, host); no host (-1) ranks last.
    let bc = Infinity;
    let be = Infinity;
    let bf = Infinity;
    let bh = -1;
    let sc = Infinity;
    let se = Infinity;
    let sf = Infinity;
    let sh = -1;
    for (let k = 0; k < len; k++) {
      const host = hosts[k]!;
      const free = frees[k]!;
      const endS = Math.max(free, readyS) + dur[durBase + classes[k]!]!;
      const complS = endS + outDurS;
      if (bh < 0 || complS < bc || (complS === bc && (endS < be || (endS === be && (free < bf || (free === bf && host < bh)))))) {
        sc = bc;
        se = be;
        sf = bf;
        sh = bh;
        bc = complS;
        be = endS;
        bf = free;
        bh = host;
      } else if (sh < 0 || complS < sc || (complS === sc && (endS < se || (endS === se && (free < sf || (free === sf && host < sh)))))) {
        sc = complS;
        se = endS;
        sf = free;
        sh = host;
      }
    }
    this.c1[cell] = bc;
    this.e1[cell] = be;
    this.h1[cell] = bh;
    this.c2[cell] = sc;
    this.e2[cell] = se;
    this.h2[cell] = sh;
    this.readyAt[cell] = readyS;
    this.version[cell] = this.clusterVersion[c]!;
  }

  /**
   * refreshCell for rules that read only the best host: every candidate of a cluster adds the same output
   * time, so ranking by (endS, free time, host) ranks exactly as (Compl, endS, free time, host) does.
   */
  private refreshBest(c: number, cell: number, readyS: number, outDurS: number, hosts: Int32Array, frees: Float64Array, classes: Int32Array, len: number, durBase: number): void {
    const dur = this.dur;
    let be = Infinity;
    let bf = Infinity;
    let bh = -1;
    for (let k = 0; k < len; k++) {
      const free = frees[k]!;
      const endS = Math.max(free, readyS) + dur[durBase + classes[k]!]!;
      if (bh < 0 || endS < be || (endS === be && (free < bf || (free === bf && hosts[k]! < bh)))) {
        be = endS;
        bf = free;
        bh = hosts[k]!;
      }
    }
    this.c1[cell] = be + outDurS;
    this.e1[cell] = be;
    this.h1[cell] = bh;
    this.h2[cell] = -1;
    this.readyAt[cell] = readyS;
    this.version[cell] = this.clusterVersion[c]!;
  }

  /** Rebuilds cluster c's candidate hosts (see snapshotBest for rules that read only the best host). */
  private snapshot(c: number): void {
    if (this.rule.readsSecondHost === true) this.snapshotTwo(c);
    else this.snapshotBest(c);
    this.snapVersion[c] = this.clusterVersion[c]!;
  }

  /**
   * The earliest-free host of each class, keeping only those faster than every earlier-free one of their
   * architecture (a Pareto front). A host that is free no earlier (ties: later in host order) and no faster
   * than another of its architecture ends no earlier for any Work and loses the ranking's ties, so it can
   * never be a Work's best host in the cluster. Sorted by (free time, host order).
   */
  private snapshotBest(c: number): void {
    const chart = this.chart;
    const hosts = this.snapHost[c]!;
    const frees = this.snapFree[c]!;
    const classes = this.snapClass[c]!;
    const heaps = this.classesOf[c]!;
    const heapClass = this.heapClass[c]!;
    let len = 0;
    for (let h = 0; h < heaps.length; h++) {
      const first = heaps[h]!.at(0);
      if (first < 0) continue;
      const free = chart.hostFreeS(first);
      let at = len++;
      while (at > 0 && (frees[at - 1]! > free || (frees[at - 1] === free && hosts[at - 1]! > first))) {
        hosts[at] = hosts[at - 1]!;
        frees[at] = frees[at - 1]!;
        classes[at] = classes[at - 1]!;
        at--;
      }
      hosts[at] = first;
      frees[at] = free;
      classes[at] = heapClass[h]!;
    }
    const fastest = this.fastestOfArch.fill(0);
    let kept = 0;
    for (let k = 0; k < len; k++) {
      const cls = classes[k]!;
      const arch = this.classArch[cls]!;
      if (!(this.classAvailability[cls]! > fastest[arch]!)) continue;
      fastest[arch] = this.classAvailability[cls]!;
      hosts[kept] = hosts[k]!;
      frees[kept] = frees[k]!;
      classes[kept++] = cls;
    }
    this.snapLen[c] = kept;
  }

  /** The two earliest-free candidate hosts of each class. */
  private snapshotTwo(c: number): void {
    const chart = this.chart;
    const hosts = this.snapHost[c]!;
    const frees = this.snapFree[c]!;
    const classes = this.snapClass[c]!;
    const heaps = this.classesOf[c]!;
    const heapClass = this.heapClass[c]!;
    let len = 0;
    for (let h = 0; h < heaps.length; h++) {
      const heap = heaps[h]!;
      const first = heap.at(0);
      if (first < 0) continue;
      const a = heap.at(1);
      const b = heap.at(2);
      const second = b < 0 || (a >= 0 && (chart.hostFreeS(a) < chart.hostFreeS(b) || (chart.hostFreeS(a) === chart.hostFreeS(b) && a < b))) ? a : b;
      const k = heapClass[h]!;
      hosts[len] = first;
      frees[len] = chart.hostFreeS(first);
      classes[len++] = k;
      if (second >= 0) {
        hosts[len] = second;
        frees[len] = chart.hostFreeS(second);
        classes[len++] = k;
      }
    }
    this.snapLen[c] = len;
  }

  /** The Work to place next (-1 if none is left). */
  private pick(): number {
    const lazy = this.rule.lowerBoundKeys === true;
    for (;;) {
      const best = this.tasks.top();
      if (best < 0) return -1;
      if (lazy && this.outdated(best)) {
        this.rescore(best);
        continue;
      }
      const threshold = this.rule.threshold;
      if (threshold === undefined) return best;
      const limit = threshold(this.k1[best]!, this.chart.nowS, this.ctx.randomTolerance);
      const candidates: number[] = [];
      let outdated = -1;
      const stack = [0];
      while (stack.length > 0 && outdated < 0) {
        const slot = stack.pop()!;
        const id = this.tasks.at(slot);
        if (id < 0 || !(this.k1[id]! <= limit)) continue;
        if (lazy && this.outdated(id)) outdated = id;
        candidates.push(id);
        stack.push(2 * slot + 1, 2 * slot + 2);
      }
      if (outdated >= 0) {
        this.rescore(outdated);
        continue;
      }
      candidates.sort((a, b) => a - b);
      return candidates[this.ctx.rng.int(candidates.length)]!;
    }
  }

  private deactivate(i: number): void {
    this.active[i] = 0;
    if (this.tasks.has(i)) this.tasks.remove(i);
    this.unwatch(i);
  }

  private unwatch(i: number): void {
    if (this.w1[i]! >= 0) this.stopWatching(2 * i, this.w1[i]!);
    if (this.w2[i]! >= 0) this.stopWatching(2 * i + 1, this.w2[i]!);
    this.w1[i] = -1;
    this.w2[i] = -1;
  }

  private watch(entry: number, c: number): void {
    const at = this.watchLen[c]!++;
    this.watchList[c]![at] = entry;
    this.watchPos[entry] = at;
  }

  private stopWatching(entry: number, c: number): void {
    const list = this.watchList[c]!;
    const at = this.watchPos[entry]!;
    const moved = list[--this.watchLen[c]!]!;
    list[at] = moved;
    this.watchPos[moved] = at;
  }
}
