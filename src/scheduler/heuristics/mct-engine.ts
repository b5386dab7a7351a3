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
//    (busier host and link, one host perhaps full), except for Works that read a file the assignment newly
//    puts on c's link. So only those Works, and the Works whose score the rule says depends on c
//    (watch1/watch2: e.g. the cluster of their best host) need a new score; the others keep theirs.
//  - Stale clusters are lower bounds (Compl only grows), so a Work's stale cluster is only recomputed when
//    its old best Compl is not above the largest Compl the score relies on (TaskScore.boundS).
//  - Min-min (lowerBoundKeys): a Work's old MCT is a lower bound of its new one, so Works are recomputed
//    only when they reach the top of the heap (lazy greedy); the top is taken only once it is up to date.
//  - A Work's missing-input cost on a cluster (InputSummary) changes only when one of its files is newly
//    planned there, so it is cached and Compl is then O(1) per candidate host.
import type { WorkSpec } from '../../model/application.js';
import type { GanttChart, InputSummary } from '../gantt.js';
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
    private readonly c1: Float64Array,
    private readonly e1: Float64Array,
    private readonly h1: Int32Array,
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
  // Host classes: per cluster, heaps of non-full hosts with equal (arch, availability), by (free, order).
  private readonly classesOf: IndexedHeap[][];
  private readonly classOfHost: IndexedHeap[];
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
  private readonly watchers: Set<number>[];
  private readonly readers = new Map<number, number[]>();
  private readonly view: ClusterBests;
  private readonly scratch: TaskScore = { k1: 0, k2: 0, host: -1, watch1: -1, watch2: -1, boundS: Infinity };
  private readonly summary: InputSummary = { missingCount: 0, sendDurS: 0, availableReadyS: 0 };

  constructor(
    private readonly ctx: PlanContext,
    private readonly rule: ScoreRule,
  ) {
    const chart = (this.chart = ctx.chart);
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
    chart.hosts.forEach((host, index) => {
      const key = `${host.cluster}|${host.arch}|${host.availability}`;
      let heap = byKey.get(key);
      if (heap === undefined) {
        heap = new IndexedHeap(lessHost, hostPositions);
        byKey.set(key, heap);
        this.classesOf[host.cluster]!.push(heap);
      }
      this.classOfHost[index] = heap;
      if (!chart.isFull(index)) heap.push(index);
    });

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
    this.clusterVersion = new Int32Array(C);
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.target = new Int32Array(n).fill(-1);
    this.w1 = new Int32Array(n).fill(-1);
    this.w2 = new Int32Array(n).fill(-1);
    this.active = new Uint8Array(n);
    this.mark = new Int32Array(n);
    this.watchers = chart.clusters.map(() => new Set<number>());
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
      if (chart.isFull(host)) hostHeap.remove(host);
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
        for (const j of this.watchers[c]!) {
          if (this.mark[j] !== stamp) {
            this.mark[j] = stamp;
            dirty.push(j);
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
      if (out.watch1 >= 0) this.watchers[out.watch1]!.add(i);
      if (out.watch2 >= 0) this.watchers[out.watch2]!.add(i);
    }
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
    let bc = Infinity;
    let be = Infinity;
    let bh = -1;
    let sc = Infinity;
    let se = Infinity;
    let sh = -1;
    for (const heap of this.classesOf[c]!) {
      const first = heap.at(0);
      if (first < 0) continue;
      const a = heap.at(1);
      const b = heap.at(2);
      const second = b < 0 || (a >= 0 && (chart.hostFreeS(a) < chart.hostFreeS(b) || (chart.hostFreeS(a) === chart.hostFreeS(b) && a < b))) ? a : b;
      for (let k = 0; k < 2; k++) {
        const host = k === 0 ? first : second;
        if (host < 0) break;
        const endS = chart.computeEndS(work, host, readyS);
        const complS = endS + outDurS;
        if (hostRankLess(chart, complS, endS, host, bc, be, bh)) {
          sc = bc;
          se = be;
          sh = bh;
          bc = complS;
          be = endS;
          bh = host;
        } else if (hostRankLess(chart, complS, endS, host, sc, se, sh)) {
          sc = complS;
          se = endS;
          sh = host;
        }
      }
    }
    this.c1[cell] = bc;
    this.e1[cell] = be;
    this.h1[cell] = bh;
    this.c2[cell] = sc;
    this.e2[cell] = se;
    this.h2[cell] = sh;
    this.version[cell] = this.clusterVersion[c]!;
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
    if (this.w1[i]! >= 0) this.watchers[this.w1[i]!]!.delete(i);
    if (this.w2[i]! >= 0) this.watchers[this.w2[i]!]!.delete(i);
    this.w1[i] = -1;
    this.w2[i] = -1;
  }
}
