// The fill loop shared by every estimate-based heuristic (H1–H9, XSufferage): repeatedly score every
// unplaced Work from its completion times, take the best-ranked Work, commit it to the host its rule names,
// until every host is full (chart.hasRoom) or no Work can be placed. What differs between heuristics is
// the ScoreRule; this file only makes the loop fast without changing its result.
//
// Why it is exact yet fast (a naive loop recomputing Compl for every Work × host after each assignment gives
// the same assignments; test/scheduler/heuristics-reference*.test.ts check this on random instances):
//  - Per Work and cluster (a "cell") we keep the best host's (Compl, endS, host), and the second-best's for
//    rules that read it (plain Sufferage). Every cell is always up to date: an assignment on cluster c
//    changes nothing in other clusters, so after it exactly the cells of c are brought up to date, for every
//    unplaced Work, in one tight pass over flat arrays mostly stored cluster by cluster (updateCells). A cell whose
//    best host is not the one placed on and did not wait for the inputs keeps its values without a look at
//    the hosts.
//  - Only a few hosts per cluster can be any Work's best or second-best host (host-fronts.ts); they are
//    copied into flat arrays once per assignment there.
//  - A Work's missing-input cost on a cluster (InputSummary) changes only when one of its files is newly
//    planned there, so it is cached and a cell costs a few operations per candidate host. The compute
//    durations per class are computed once per run-time profile (run-time-profiles.ts). Same arithmetic
//    as GanttChart.computeEndS and GanttChart.compl, so the same floating-point values.
//  - The engine numbers the Works grouped by profile: a pass then reads one profile's durations for many
//    Works in a row, from cache (bench/plan.bench: Sufferage about 12 % faster than in the given order).
//    Ties between Works still go to the lower index in the plan's Works (idOf).
//  - A Work whose inputs are ready by the front's first free time starts on every front host at its free
//    time: its best two hosts are its profile's, so such Works of one profile share one scan per pass.
//  - A Work is scored again only when its cell of c changed and the rule may read it: the rule says which
//    clusters its score watches and the largest Compl it relies on (a cluster whose best Compl is above it
//    cannot change the score).
//  - XSufferage's score (ScoreRule.clusterSufferage) is updated in place when only its best cluster's cell
//    changed and stays below the second's: the best two clusters are then the same.
//  - Rules that rank every cluster (Extended Sufferage, Sufferage II) keep each Work's ranking; scored again
//    in the pass over c, only c moves in it (ClusterBests.changed).
//  - The best Work is found during that same pass: with most Works scored again after each
//    assignment, this costs less than keeping a heap of Works in order.
//  - The Compls themselves are stored Work by Work (c1ByWork, c2ByWork), so scoring reads one place.
//  - Works that differ only by id share one set of cells (a class, work-classes.ts): below, "Work" is
//    such a class, standing for its lowest-id Work not placed yet.
//  - For the sufferage family (ScoreRule.readsOnlyDifferences), Works that wait for a host on every
//    cluster behind links of equal estimates are not in that pass at all: they score alike up to exactly
//    known rounding, so host-bound-pool.ts scores only the lowest-id one of each group (the 20,000-task
//    XSufferage study of bench/sim.bench.ts: 405 M visits of a Work in the pass down to 4 M, 22.9 s to 4.6 s).
//    Their randomized rules too: a draw's candidates are the pass's Works within the limit and the pool's
//    (HostBoundPool.drawWithin: a group scores as its scored Work, so it is all in or all out).
//    Max-min keeps such Works out of its pass too (maxmin-groups.ts): within a run-time profile their MCTs
//    rank as their output times do, so only each profile's best one is scored.
//    Works admitted to such groups when the plan starts get no cells at all until the groups score them
//    (fill): on long sweeps nearly every waiting Work is one of them, and most are never scored.
//  - Min-min needs none of that: completion times only grow as the chart fills, so a Work's last MCT is a
//    lower bound of its current one, and only the Work at the top of a heap by that bound is brought up to
//    date, until the top one is current (runLazily). Randomized Min-min too: its draw's candidates all lie in
//    the part of the heap within the draw's limit, brought up to date together (drawLazily), except those that
//    a current cell within the limit already shows to be candidates (most of them). Min-min's Works
//    that wait for a host on every cluster are one heap entry per run-time profile (minmin-groups.ts): one by
//    one, hundreds of them would come to the top after each placement, to be brought up to date and sink again.
import type { FileSpec, WorkSpec } from '../../model/application.js';
import type { FileSizes } from './file-sizes.js';
import type { GanttChart, InputSummary } from '../gantt.js';
import { IndexedHeap } from '../indexed-heap.js';
import { HostBoundPool, type ClusterFreeTimes, type ScoredByGroups } from './host-bound-pool.js';
import { markEligible, type GroupedEngine } from './host-bound-groups.js';
import { MaxMinGroups } from './maxmin-groups.js';
import { MinMinGroups } from './minmin-groups.js';
import { HostFronts } from './host-fronts.js';
import { PlanArrays } from './plan-arrays.js';
import { profileOrder, reordered } from './run-time-profiles.js';
import { singletonClasses, type WorkClasses } from './work-classes.js';
import { WorkIndex } from './work-index.js';
import { sortIndices } from './sort-indices.js';
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
   * True when the score reads each cluster's second-best host (compl2/end2/host2: plain Sufferage, whose
   * second-best host may sit in the same cluster as the best). The others read only each cluster's best.
   */
  readonly readsSecondHost?: boolean;
  /**
   * True when a Work's k1 can only grow as the chart fills, except when one of its inputs gets planned on a
   * cluster (Min-min: k1 is its MCT). The engine then re-scores a Work only when it comes to the top
   * (MctEngine.runLazily); k2 must be constant.
   */
  readonly keysOnlyGrow?: boolean;
  /**
   * True when k1 is exactly the Work's MCT (the least Compl of its clusters' best hosts), k2 is 0, host the host
   * achieving it and watch1 its cluster, ranked as bestCluster ranks them (Min-min). The lazy mode then keeps
   * Works host-bound on every cluster by groups (minmin-groups.ts).
   */
  readonly keyIsCompletion?: boolean;
  /**
   * True when k1 is exactly minus the Work's MCT, k2 is 0, host the host achieving it and watch1 its cluster,
   * ranked as bestCluster ranks them (Max-min). The eager mode then keeps Works host-bound on every cluster
   * out of its pass, by groups (maxmin-groups.ts).
   */
  readonly keyIsMinusCompletion?: boolean;
  /**
   * True when k1, k2 and host depend on the Compls only through comparisons between them and differences of
   * two of them (the sufferage family): adding one amount to all of a Work's Compls, exactly, leaves its
   * score as it was. The engine then scores Works that wait for a host on every cluster by groups
   * (host-bound-pool.ts).
   */
  readonly readsOnlyDifferences?: boolean;
  /**
   * True when, for a Work with two candidate clusters or more, the score is exactly k1 = −(compl1(second) −
   * compl1(best)), k2 = 0, host = host1(best), watch1 = best, watch2 = second, boundS = compl1(second), best
   * and second as bestTwoClusters ranks them (XSufferage). When only the best cluster's cell changed and its
   * Compl stays below the second's, the best two are the same, and the engine updates k1 and host itself.
   */
  readonly clusterSufferage?: boolean;
  score(view: ClusterBests, out: TaskScore): void;
  /**
   * Randomized variants: the candidates are the Works whose k1 ≤ threshold(k1 of the best Work); one is
   * drawn uniformly (rng.int over the candidates sorted by Work id). Absent: the best Work is taken.
   */
  readonly threshold?: (bestK1: number, nowS: number, tolerance: number) => number;
}

/**
 * One Work's two best (Compl, endS, host) per cluster, as rules read them. host -1: no candidate. The Compls
 * lie Work by Work (hot scans read the rows directly); the ends and hosts cluster by cluster, Work `work`'s
 * of cluster c at c * stride + work.
 */
export class ClusterBests {
  work = 0;
  /**
   * The only cluster whose cell of this Work changed since its last score (-1: unknown). Rules that rank
   * every cluster keep each Work's ranking in rankOrder (clusterCount entries per Work, rankedCount[work]
   * of them used; -1: none kept) and then move only that cluster in it (cluster-ranking.ts).
   */
  changed = -1;
  rankOrder: Int32Array = new Int32Array(0);
  rankedCount: Int32Array = new Int32Array(0);
  constructor(
    readonly clusterCount: number,
    private readonly stride: number,
    private readonly chart: GanttChart,
    /** The best hosts' Compls, Work by Work (Work `work`'s at work * clusterCount + c): a scan reads one place. */
    readonly mctByWork: Float64Array,
    /** The second-best hosts' Compls, laid out as mctByWork. */
    readonly mct2ByWork: Float64Array,
    private readonly e1: Float64Array,
    private readonly h1: Int32Array,
    private readonly e2: Float64Array,
    private readonly h2: Int32Array,
  ) {}
  compl1(c: number): number {
    return this.mctByWork[this.work * this.clusterCount + c]!;
  }
  end1(c: number): number {
    return this.e1[c * this.stride + this.work]!;
  }
  host1(c: number): number {
    return this.h1[c * this.stride + this.work]!;
  }
  compl2(c: number): number {
    return this.mct2ByWork[this.work * this.clusterCount + c]!;
  }
  end2(c: number): number {
    return this.e2[c * this.stride + this.work]!;
  }
  host2(c: number): number {
    return this.h2[c * this.stride + this.work]!;
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
  private readonly n: number;
  private readonly C: number;
  private readonly fronts: HostFronts;
  /** Per Work, its run-time profile: the row of its durations in fronts.durOf. */
  private readonly profileOf: Int32Array;
  private readonly profileCount: number;
  /** Per class (internal index), the index in the plan's Works of the Work it stands for: ties go to the lower. */
  private readonly idOf: Int32Array;
  /** The classes of identical Works (work-classes.ts), each one's Works listed by increasing index in the plan's Works. */
  private readonly classes: WorkClasses;
  /** Per class (internal index), its class in `classes`, and the place in classes.list of the next Work to stand for it. */
  private readonly classOrder: Int32Array;
  private readonly nextMember: Int32Array;
  // Per (work i, cluster c) at index i * C + c (the Compls, read together when scoring) or c * n + i (the rest: a
  // pass over one cluster's cells reads memory in order).
  private readonly c1ByWork: Float64Array;
  private readonly c2ByWork: Float64Array;
  private readonly e1: Float64Array;
  private readonly h1: Int32Array;
  /** Second-best values, for rules that read them (else empty). */
  private readonly withSecond: boolean;
  private readonly e2: Float64Array;
  private readonly h2: Int32Array;
  private readonly outDur: Float64Array;
  private readonly summaryStale: Uint8Array;
  /** How long the missing inputs take on the link; -Infinity when none is missing (then only availReady counts). */
  private readonly sendDur: Float64Array;
  private readonly availReady: Float64Array;
  /**
   * The latest input-ready time at which the cell's values still hold (NaN: compute it again): the free time
   * of its best (and second) host when they waited for themselves, else the ready time it was computed from.
   */
  private readonly holdS: Float64Array;
  // Per work: the score, and what it relies on.
  private readonly k1: Float64Array;
  private readonly k2: Float64Array;
  private readonly target: Int32Array;
  private readonly w1: Int32Array;
  private readonly w2: Int32Array;
  private readonly bound: Float64Array;
  /** 1 for the unplaced Works that can still be placed. */
  private readonly active: Uint8Array;
  /** The active Works in increasing order (the first activeCount; placed or dropped ones leave at the next pass). */
  private readonly activeList: Int32Array;
  private activeCount = 0;
  /** The Works reading file f, increasing: readerList[readerStart[f]] up to readerList[readerStart[f + 1]]. */
  private readonly readerStart: Int32Array;
  private readonly readerList: Int32Array;
  /** Per Work of the plan (its index in the plan's Works), the engine's Work that stands for its class when the plan starts, or -1. */
  private readonly engineIndexOf: Int32Array;
  /**
   * Per class (internal index), its distinct inputs: inputs[inputsStart[i]] up to inputs[inputsEnd[i]] (the
   * index's list, for the class's first Work: every Work of a class has the same set of inputs).
   */
  private readonly inputsStart: Int32Array;
  private readonly inputsEnd: Int32Array;
  private readonly inputs: Int32Array;
  /** The chart's files, and their sizes kept between plans (file-sizes.ts). */
  private readonly fileSpecs: readonly FileSpec[];
  private readonly sizes: FileSizes;
  /**
   * Placements made on each cluster, and per cell how many there had been when it was last computed: a cell
   * is current when they are equal (nothing else changes a cluster's part of the chart). Cells Work by Work
   * (j * C + c): a Work's lagging cells are looked up together.
   */
  private readonly clusterVersion: Int32Array;
  private readonly cellVersion: Int32Array;
  /** Works host-bound on every cluster, scored by groups (rules that read only differences; Max-min). */
  private readonly pool: ScoredByGroups | undefined;
  private readonly view: ClusterBests;
  /** Where the typed arrays above come from (given back when the plan is made). */
  private readonly arrays: PlanArrays;
  private readonly scratch: TaskScore = { k1: 0, k2: 0, host: -1, watch1: -1, watch2: -1, boundS: Infinity };
  private readonly summary: InputSummary = { missingCount: 0, sendDurS: 0, availableReadyS: 0 };
  /** Scratch of pick() and drawLazily(): the randomized rules' candidates; drawLazily's walk of the heap. */
  private candidates: Int32Array | undefined;
  private slotStack: Int32Array | undefined;
  /** Scratch of drawLazily and bringManyUpToDate: the Works to bring up to date, and those lagging on one cluster. */
  private staleList: Int32Array | undefined;
  private laggingList: Int32Array | undefined;
  private laggingCount: Int32Array | undefined;
  private sortScratch: Int32Array | undefined;
  /** Scratch of drawLazily: the groups found within the limit. */
  private groupsFound: Int32Array | undefined;

  constructor(
    private readonly ctx: PlanContext,
    private readonly rule: ScoreRule,
  ) {
    const chart = (this.chart = ctx.chart);
    const C = (this.C = chart.clusters.length);
    // The engine's items are classes of identical Works (work-classes.ts), each standing for its lowest-id
    // Work not placed yet; randomized rules draw among Works, so each Work is its own class there.
    const arrays = (this.arrays = PlanArrays.take());
    // The input summaries look files up cluster by cluster: the chart answers "not there" from bits.
    chart.indexArrivals();
    // What depends on the specifications alone comes from the index kept between plans (work-index.ts).
    const index = ctx.workIndex ?? new WorkIndex();
    index.refresh(ctx.works);
    // From here on the set-up reads flat arrays kept between plans (the index's lists, the files' sizes), not
    // the Works' objects: those lie spread over the heap, a cache miss each time a pass reads one.
    const planIds = index.ids;
    const files = (this.fileSpecs = chart.fileSpecs);
    this.sizes = index.sizes;
    const outputSizes = index.outputBytes(ctx.works.length, files, arrays);
    const classes = (this.classes = rule.threshold === undefined ? index.planClasses(ctx.works.length, outputSizes, arrays) : singletonClasses(ctx.works.length, arrays));
    const firstIds = new Int32Array(classes.count);
    for (let k = 0; k < classes.count; k++) firstIds[k] = planIds[classes.list[classes.start[k]!]!]!;
    const given = index.profilesOf(firstIds);
    const order = (this.classOrder = profileOrder(given));
    const n = (this.n = order.length);
    // Plain loops: Array.from over a typed array goes through its iterator.
    this.idOf = new Int32Array(n);
    this.nextMember = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const first = classes.start[order[i]!]!;
      this.idOf[i] = classes.list[first]!;
      this.nextMember[i] = first + 1;
    }
    const withSecond = (this.withSecond = rule.readsSecondHost === true);
    const profiles = reordered(given, order);
    this.profileOf = profiles.profileOf;
    this.profileCount = profiles.firstWork.length;
    this.fronts = new HostFronts(chart, (i) => this.workOf(i), profiles, ctx.hostCandidates ?? 'all', withSecond);

    const cells = n * C;
    const secondCells = withSecond ? cells : 0;
    this.c1ByWork = arrays.float64(cells);
    this.e1 = arrays.float64(cells);
    this.h1 = arrays.int32(cells);
    this.c2ByWork = arrays.float64(secondCells);
    this.e2 = arrays.float64(secondCells);
    this.h2 = arrays.int32(secondCells, -1);
    this.outDur = arrays.float64(cells);
    this.summaryStale = arrays.uint8(cells, 1);
    this.sendDur = arrays.float64(cells);
    this.availReady = arrays.float64(cells);
    this.holdS = arrays.float64(cells, NaN);
    this.k1 = arrays.float64(n);
    this.k2 = arrays.float64(n);
    this.target = arrays.int32(n, -1);
    this.w1 = arrays.int32(n, -1);
    this.w2 = arrays.int32(n, -1);
    this.bound = arrays.float64(n);
    this.active = arrays.uint8(n);
    this.clusterVersion = arrays.int32(C);
    this.cellVersion = arrays.int32(cells);
    this.activeList = arrays.int32(n);
    this.view = new ClusterBests(C, n, chart, this.c1ByWork, this.c2ByWork, this.e1, this.h1, this.e2, this.h2);
    if (rule.watchesAll) {
      this.view.rankOrder = arrays.int32(cells);
      this.view.rankedCount = arrays.int32(n, -1);
    }

    // The Works are read in the plan's order from here on: it is mostly the order their objects lie in memory,
    // and reading them in the engine's order (by profile) cost a cache miss per Work and pass.
    const engineIndexOf = (this.engineIndexOf = arrays.int32(ctx.works.length, -1));
    for (let i = 0; i < n; i++) engineIndexOf[this.idOf[i]!] = i;
    // Each Work's distinct inputs, counted per file, then listed per file by increasing Work.
    // (From the index's flat list of inputs: the second loop goes in the engine's order without reading the Works.)
    // File f's count goes to readerStart[f + 2], so that after the sums readerStart[f + 1] is where its list
    // starts, and after the listing (which moves it on) where it ends: one array looked up per reading.
    const readerStart = (this.readerStart = arrays.int32(chart.fileCount + 2));
    const inputsStart = (this.inputsStart = arrays.int32(n));
    const inputsEnd = (this.inputsEnd = arrays.int32(n));
    const inputs = (this.inputs = index.inputs);
    let readings = 0;
    for (let w = 0; w < engineIndexOf.length; w++) {
      const i = engineIndexOf[w]!;
      if (i < 0) continue;
      // GanttChart.outputDurationS, the outputs' size added up once.
      const noOutput = outputSizes.none[w] === 1;
      const bytes = outputSizes.bytes[w]!;
      for (let c = 0; c < C; c++) this.outDur[c * n + i] = noOutput ? 0 : chart.transferDurationS(c, bytes);
      const id = planIds[w]!;
      inputsStart[i] = index.inputsStart(id);
      inputsEnd[i] = inputsStart[i]! + index.inputsCount(id);
      for (let k = inputsStart[i]!; k < inputsEnd[i]!; k++) readerStart[inputs[k]! + 2]!++;
      readings += inputsEnd[i]! - inputsStart[i]!;
    }
    for (let f = 2; f <= chart.fileCount + 1; f++) readerStart[f]! += readerStart[f - 1]!;
    const readerList = (this.readerList = arrays.int32(readings));
    for (let i = 0; i < n; i++) {
      for (let k = inputsStart[i]!; k < inputsEnd[i]!; k++) readerList[readerStart[inputs[k]! + 1]!++] = i;
    }
    const byGroups = rule.readsOnlyDifferences === true && rule.keysOnlyGrow !== true;
    const pool = byGroups ? this.makePool(profiles.firstWork.length, arrays) : undefined;
    this.pool = pool?.anyUniform === true ? pool : rule.keyIsMinusCompletion === true ? this.makeMaxMinGroups() : undefined;
  }

  private makePool(profileCount: number, arrays: PlanArrays): HostBoundPool {
    const { n, C, chart, fronts } = this;
    const front = this.withSecond ? fronts.second : fronts.best;
    return new HostBoundPool({
      n,
      clusterCount: C,
      profileOf: this.profileOf,
      profileCount,
      idOf: this.idOf,
      outDur: this.outDur,
      sendDur: this.sendDur,
      availReady: this.availReady,
      summaryStale: this.summaryStale,
      e1: this.e1,
      e2: this.withSecond ? this.e2 : undefined,
      firstFreeS: (c) => (front[c]!.len > 0 ? front[c]!.free[0]! : Infinity),
      linkFreeS: (c) => chart.linkFreeS(c),
      refresh: (j) => this.refresh(j),
      drop: (j) => this.deactivate(j),
      ranksBefore: (i, j) => this.ranksBefore(i, j),
      drawKeys: this.rule.threshold === undefined ? undefined : this.k1,
    }, arrays);
  }

  /** Brings Work j's cells up to date on every cluster and scores it; false when it cannot be placed. */
  private refresh(j: number): boolean {
    this.bringCellsUpToDate(j);
    this.rescore(j);
    return this.active[j] === 1;
  }

  /** Work j left the pool: scored afresh, it goes back to it or to the Works the engine's pass scores. */
  private release(j: number): void {
    if (this.refresh(j)) this.enlist(j);
  }

  /** Active Work j, scored, not in the pass's list: into the pool if it may join it, else into the list. */
  private enlist(j: number): void {
    if (this.pool?.admits(j) === true) this.pool.add(j);
    else this.activeList[this.activeCount++] = j;
  }

  run(): void {
    try {
      this.fill();
    } finally {
      PlanArrays.give(this.arrays);
    }
  }

  private fill(): void {
    const { C, n } = this;
    const lazily = this.rule.keysOnlyGrow === true;
    // The lazy mode computes one cell per call, so it computes the first ones that way too. Long first passes
    // make V8 compile updateCells for entry inside its loop (on-stack replacement) only, after which
    // millions of single-cell calls could run unoptimized: a cold Min-min plan took 4 s instead of 0.8 s.
    this.summarizeInputs();
    if (lazily) {
      for (let i = 0; i < n; i++) for (let c = 0; c < C; c++) this.updateCells(c, -1, false, i);
      for (let i = 0; i < n; i++) {
        this.active[i] = 1;
        this.rescore(i);
        if (this.active[i] === 1) this.enlist(i);
      }
      this.runLazily();
      return;
    }
    // The Works the pool (or Max-min's groups) takes now are scored by it when it needs them (bestWith scores
    // a few per group; a Work leaving it is scored afresh): they get no cells here. Its test reads only the
    // input summaries and the chart, which the cells do not change, so it admits the Works it admitted when
    // it was asked after the first scoring. A Work that cannot be placed is dropped by the pool instead: a
    // pooled Work's cells depend only on its run-time profile, so it drops the whole group (bestWith).
    const { pool, active, cellVersion } = this;
    const rest = this.arrays.int32(n);
    let restCount = 0;
    const times = pool?.freeTimes();
    for (let i = 0; i < n; i++) {
      active[i] = 1;
      if (pool !== undefined && pool.admits(i, times)) {
        pool.add(i);
        for (let c = 0; c < C; c++) cellVersion[i * C + c] = -1;
      } else rest[restCount++] = i;
    }
    for (let c = 0; c < C; c++) this.updateCells(c, -1, false, -1, rest, restCount);
    for (let p = 0; p < restCount; p++) {
      const i = rest[p]!;
      this.rescore(i);
      if (active[i] === 1) this.activeList[this.activeCount++] = i;
    }
    this.runEagerly();
  }

  /** Keeps every cell and score current after each assignment (updateCells), whatever the rule. */
  private runEagerly(): void {
    const { chart, pool } = this;
    let best = -1;
    for (let p = 0; p < this.activeCount; p++) {
      const i = this.activeList[p]!;
      if (best < 0 || this.ranksBefore(i, best)) best = i;
    }
    if (pool !== undefined) best = pool.bestWith(best);
    while (best >= 0 && chart.hasRoom()) {
      const i = this.pick(best);
      // A grouped or pooled Work drawn (randomized rules): its k1 is current, its host comes from its own score.
      if (i !== best && pool?.has(i) === true) this.refresh(i);
      const host = this.target[i]!;
      const c = chart.hosts[host]!.cluster;
      const row = chart.commit(this.workOf(i), host);
      this.clusterVersion[c]++;
      const pooled = pool?.has(i) === true;
      if (this.nextStandsFor(i)) {
        if (pooled) pool!.idChanged(i);
      } else {
        this.deactivate(i);
        if (pooled) pool!.remove(i);
      }
      this.fronts.hostChanged(host);
      this.inputsPlanned(c, row.sentFiles);
      if (pool !== undefined) for (const j of pool.linkBoundOn(c)) this.release(j);
      best = this.updateCells(c, host, true);
      if (pool !== undefined) best = pool.bestWith(best);
    }
  }

  /**
   * For rules whose keys only grow (keysOnlyGrow): a heap of Works by their last key, which stays a lower bound
   * of the current one. The top Work is brought up to date (its cells of the clusters assigned to since, then
   * its score) and put back, until the top one is current: no other can rank before it. A score stays current
   * while nothing is placed on the cluster of its best host: a cell of another cluster only ranks later as the
   * chart fills (its (Compl, endS, host free time, host) grows), so it cannot overtake that best one. The
   * readers of a file newly planned on a cluster may get a lower key, so they are brought up to date at once.
   * Randomized rules (threshold) draw among the Works whose key is within the limit: every Work whose lower
   * bound is within it is found by a walk down the heap and brought up to date (drawLazily).
   */
  private runLazily(): void {
    const { chart, n, active, clusterVersion, w1, k1, k2, idOf } = this;
    const groups = this.rule.keyIsCompletion === true ? this.makeGroups() : undefined;
    const member = groups?.member;
    const gk1 = groups?.k1;
    const gk2 = groups?.k2;
    const gid = groups?.id;
    // Entries n + g are the groups of host-bound Works (minmin-groups.ts), keyed by their best Work's key.
    const heap = new IndexedHeap(
      groups === undefined
        ? (a, b) => this.ranksBefore(a, b)
        : (a, b) => {
            const ak1 = a < n ? k1[a]! : gk1![a - n]!;
            const bk1 = b < n ? k1[b]! : gk1![b - n]!;
            if (ak1 !== bk1) return ak1 < bk1;
            const ak2 = a < n ? k2[a]! : gk2![a - n]!;
            const bk2 = b < n ? k2[b]! : gk2![b - n]!;
            if (ak2 !== bk2) return ak2 < bk2;
            return (a < n ? idOf[a]! : gid![a - n]!) < (b < n ? idOf[b]! : gid![b - n]!);
          },
      n + (groups?.count ?? 0),
    );
    // Per Work, the placements made on its best host's cluster when it was scored (all current at first).
    const scoredAt = new Int32Array(n);
    const current = (j: number): boolean => scoredAt[j] === clusterVersion[w1[j]!];
    /** Work j, scored and out of the heap, joins its group (whose entry comes into the heap or moves up). */
    const join = (j: number): void => {
      const g = this.profileOf[j]!;
      if (groups!.add(j, k1[j]!, k2[j]!, w1[j]!, scoredAt[j]!)) heap.push(n + g);
      else heap.update(n + g);
    };
    /** Work j leaves its group; an empty group's entry leaves the heap. */
    const leave = (j: number): void => {
      if (groups!.remove(j)) heap.remove(n + this.profileOf[j]!);
    };
    /**
     * Scores Work j, its cells up to date, and puts it back in the heap (or, unless a draw is under way, in its
     * group: a draw lists its candidates from the heap's Works and from the groups apart), or out.
     */
    const settle = (j: number, mayJoin = true): void => {
      this.rescore(j);
      const inHeap = heap.has(j);
      if (active[j] === 1) {
        scoredAt[j] = clusterVersion[w1[j]!]!;
        if (mayJoin && groups?.admits(j) === true) {
          if (inHeap) heap.remove(j);
          join(j);
        } else if (inHeap) heap.update(j);
        else heap.push(j);
      } else if (inHeap) heap.remove(j);
    };
    const bringUpToDate = (j: number): void => {
      this.bringCellsUpToDate(j);
      settle(j);
    };
    /** Group g's key made exact: its first Work scored, then the least-id Work tied with it (and scored). */
    const refreshGroup = (g: number): void => {
      for (;;) {
        const first = groups!.firstOf(g);
        this.bringCellsUpToDate(first);
        this.rescore(first);
        if (active[first] === 0) {
          leave(first);
          if (groups!.isEmpty(g)) return;
          continue;
        }
        scoredAt[first] = clusterVersion[w1[first]!]!;
        let j = groups!.tiedBest(g, first, this.e1[w1[first]! * n + first]!, k1[first]!, 1);
        if (j !== first) {
          this.bringCellsUpToDate(j);
          this.rescore(j);
          scoredAt[j] = clusterVersion[w1[j]!]!;
          // Tied with the first one by construction (minmin-groups.ts): anything else is a bug in the grouping.
          if (active[j] === 0 || k1[j] !== k1[first]) throw new Error(`internal error: Min-min group of profile ${g}: tied Work's MCT ${k1[j]} is not ${k1[first]}`);
        }
        groups!.setBest(g, j, k1[j]!, k2[j]!, w1[j]!, scoredAt[j]!);
        heap.update(n + g);
        return;
      }
    };
    const times = groups?.freeTimes();
    for (let p = 0; p < this.activeCount; p++) {
      const j = this.activeList[p]!;
      if (groups?.admits(j, times) === true) join(j);
      else heap.push(j);
    }
    const drawing = this.rule.threshold !== undefined;
    while (heap.size > 0 && chart.hasRoom()) {
      const top = heap.top();
      let i: number;
      if (top >= n) {
        if (!groups!.current(top - n, clusterVersion)) {
          refreshGroup(top - n);
          continue;
        }
      } else if (!current(top)) {
        bringUpToDate(top);
        continue;
      }
      if (drawing) {
        i = this.drawLazily(heap, top, current, (j) => settle(j, false), groups, refreshGroup);
        if (member?.[i] === 1 || !current(i)) {
          // A group's Work drawn, or one known a candidate by a current cell: its own cells and score for its host.
          this.bringCellsUpToDate(i);
          this.rescore(i);
        }
      } else i = top >= n ? groups!.bestOf(top - n) : top;
      const host = this.target[i]!;
      const c = chart.hosts[host]!.cluster;
      const row = chart.commit(this.workOf(i), host);
      if (member?.[i] === 1) {
        // Alone in its class (minmin-groups.ts).
        leave(i);
        this.deactivate(i);
      } else if (this.nextStandsFor(i)) {
        // The class's next Work keeps its key (still a lower bound) and has a higher id; its best cluster is c,
        // so it counts as not current.
        heap.update(i);
      } else {
        this.deactivate(i);
        heap.remove(i);
      }
      this.fronts.hostChanged(host);
      this.clusterVersion[c]++;
      this.inputsPlanned(c, row.sentFiles);
      if (groups !== undefined) {
        // Out of their groups with the group's key, a lower bound of theirs, and not current.
        for (const j of groups.linkBoundOn(c)) {
          const g = this.profileOf[j]!;
          if (groups.isEmpty(g) && heap.has(n + g)) heap.remove(n + g);
          k1[j] = groups.k1[g]!;
          k2[j] = groups.k2[g]!;
          scoredAt[j] = -1;
          heap.push(j);
        }
      }
      for (const fileId of row.sentFiles) {
        for (let r = this.readerStart[fileId]!; r < this.readerStart[fileId + 1]!; r++) {
          const j = this.readerList[r]!;
          if (active[j] !== 1) continue;
          if (member?.[j] === 1) leave(j);
          bringUpToDate(j);
        }
      }
    }
  }

  /** The groups of host-bound Works (minmin-groups.ts), or undefined when no Work may join one. */
  private makeGroups(): MinMinGroups | undefined {
    const engine = this.groupedEngine();
    return engine === undefined ? undefined : new MinMinGroups(engine, this.arrays);
  }

  /** Max-min's groups of host-bound Works (maxmin-groups.ts), or undefined when no Work may join one. */
  private makeMaxMinGroups(): MaxMinGroups | undefined {
    const engine = this.groupedEngine();
    if (engine === undefined) return undefined;
    const { n, e1, w1 } = this;
    return new MaxMinGroups({
      ...engine,
      refresh: (j) => this.refresh(j),
      drop: (j) => this.deactivate(j),
      bestEndS: (j) => e1[w1[j]! * n + j]!,
      ranksBefore: (i, j) => this.ranksBefore(i, j),
    }, this.arrays);
  }

  /** What groups of host-bound Works read of the engine (host-bound-groups.ts); undefined when no Work is eligible. */
  private groupedEngine(): GroupedEngine | undefined {
    const { n, C, chart, fronts, classes, classOrder } = this;
    const alone = this.arrays.uint8(n);
    for (let i = 0; i < n; i++) alone[i] = classes.start[classOrder[i]! + 1]! - classes.start[classOrder[i]!]! === 1 ? 1 : 0;
    const eligible = this.arrays.uint8(n);
    if (markEligible(n, C, this.outDur, alone, eligible) === 0) return undefined;
    const front = fronts.best;
    return {
      n,
      clusterCount: C,
      profileOf: this.profileOf,
      profileCount: this.profileCount,
      idOf: this.idOf,
      outDur: this.outDur,
      sendDur: this.sendDur,
      availReady: this.availReady,
      summaryStale: this.summaryStale,
      eligible,
      firstFreeS: (c) => (front[c]!.len > 0 ? front[c]!.free[0]! : Infinity),
      linkFreeS: (c) => chart.linkFreeS(c),
    };
  }

  /**
   * The randomized rules' draw in the lazy mode, given the top Work, current: the candidates are the Works
   * whose current key is within threshold(top's key). A Work whose lower bound is above it is not one; every
   * other one lies in the part of the heap whose keys are within it (a parent's key is no larger than its
   * children's), found by a walk from the root and brought up to date (its key grows, so the top stays the top):
   * their cells together, cluster by cluster (bringManyUpToDate), then their scores (settle). A group found
   * there (minmin-groups.ts) is made current and gives its Works within the limit (MinMinGroups.within); the
   * Works settled here stay out of groups meanwhile, so that none is listed twice. The candidates are then
   * sorted by Work id as pick() lists them: the same draw.
   */
  private drawLazily(
    heap: IndexedHeap,
    top: number,
    current: (j: number) => boolean,
    settle: (j: number) => void,
    groups: MinMinGroups | undefined,
    refreshGroup: (g: number) => void,
  ): number {
    const { k1, active, idOf, engineIndexOf, n } = this;
    const keyOf = (e: number): number => (e < n ? k1[e]! : groups!.k1[e - n]!);
    const limit = this.rule.threshold!(keyOf(top), this.chart.nowS, this.ctx.randomTolerance);
    const found = (this.candidates ??= new Int32Array(this.n));
    const slots = (this.slotStack ??= new Int32Array(this.n + 2));
    let count = 0;
    let groupCount = 0;
    let depth = 0;
    slots[depth++] = 0;
    while (depth > 0) {
      const slot = slots[--depth]!;
      const j = heap.at(slot);
      if (j < 0 || !(keyOf(j) <= limit)) continue;
      // Works from the front of `found`, groups (n + g) from its back.
      if (j < n) found[count++] = j;
      else found[n - ++groupCount] = j;
      slots[depth++] = 2 * slot + 1;
      slots[depth++] = 2 * slot + 2;
    }
    // When the key is the MCT, a Work whose key is stale but one of whose current cells is within the limit is a
    // candidate (its MCT is at most that cell's Compl) without being brought up to date: its key stays a lower
    // bound in the heap.
    const byCells = this.rule.keyIsCompletion === true;
    const stale = (this.staleList ??= new Int32Array(this.n));
    let staleCount = 0;
    for (let q = 0; q < count; q++) {
      const j = found[q]!;
      if (!current(j) && !(byCells && this.currentCellWithin(j, limit))) stale[staleCount++] = j;
    }
    if (staleCount > 0) {
      this.bringManyUpToDate(stale, staleCount);
      for (let q = 0; q < staleCount; q++) settle(stale[q]!);
    }
    let kept = 0;
    for (let q = 0; q < count; q++) {
      const j = found[q]!;
      // Randomized rules make every Work its own class (constructor): idOf is its index in the plan's Works.
      if (active[j] === 1 && k1[j]! <= limit) found[kept++] = idOf[j]!;
    }
    // A group's candidates: its Works whose MCT, fl(E + o), is within the limit, a prefix of its list.
    const groupsFound = (this.groupsFound ??= new Int32Array(groups?.count ?? 0));
    for (let q = 0; q < groupCount; q++) groupsFound[q] = found[n - 1 - q]! - n;
    for (let q = 0; q < groupCount; q++) {
      const g = groupsFound[q]!;
      if (!groups!.current(g, this.clusterVersion)) refreshGroup(g);
      if (groups!.isEmpty(g)) continue;
      const b = groups!.bestOf(g);
      kept = groups!.within(g, this.e1[this.w1[b]! * n + b]!, limit, found, kept);
    }
    const ids = sortIndices(found, kept, (this.sortScratch ??= new Int32Array(this.n)));
    return engineIndexOf[ids[this.ctx.rng.int(kept)]!]!;
  }

  /** Some cell of Work j is current (no placement on its cluster since it was computed) with a Compl within `limit`. */
  private currentCellWithin(j: number, limit: number): boolean {
    const { C, clusterVersion, cellVersion, c1ByWork } = this;
    for (let c = 0; c < C; c++) if (cellVersion[j * C + c] === clusterVersion[c] && c1ByWork[j * C + c]! <= limit) return true;
    return false;
  }

  /**
   * bringCellsUpToDate for the first `count` Works of `given` (reordered), one updateCells call per
   * cluster for all of their cells there that lag, in memory order.
   */
  private bringManyUpToDate(given: Int32Array, count: number): void {
    const { C, n, clusterVersion, cellVersion } = this;
    const works = sortIndices(given, count, (this.sortScratch ??= new Int32Array(n)));
    // Per cluster c, the Works lagging there at c * n onwards (increasing), laggingCount[c] of them.
    const lagging = (this.laggingList ??= new Int32Array(C * n));
    const laggingCount = (this.laggingCount ??= new Int32Array(C));
    laggingCount.fill(0);
    for (let q = 0; q < count; q++) {
      const j = works[q]!;
      for (let c = 0; c < C; c++) if (cellVersion[j * C + c] !== clusterVersion[c]) lagging[c * n + laggingCount[c]!++] = j;
    }
    for (let c = 0; c < C; c++) {
      const m = laggingCount[c]!;
      if (m === 0) continue;
      this.updateCells(c, -1, false, -1, lagging.subarray(c * n, c * n + m), m);
      for (let q = c * n; q < c * n + m; q++) cellVersion[lagging[q]! * C + c] = clusterVersion[c]!;
    }
  }

  /** Brings Work j's cells up to date on every cluster placed on since they were computed. */
  private bringCellsUpToDate(j: number): void {
    const { C, clusterVersion, cellVersion } = this;
    for (let c = 0; c < C; c++) {
      const cell = j * C + c;
      if (cellVersion[cell] === clusterVersion[c]) continue;
      this.updateCells(c, -1, false, j);
      cellVersion[cell] = clusterVersion[c]!;
    }
  }

  /**
   * Every Work's inputs summary on every cluster, Work by Work, in the order of the plan's Works, before the
   * first cells. Works with at most two distinct inputs (summarize) are summarized from the index's flat list
   * and the sizes kept between plans, not from their objects (the Work, its list, its files: spread over the
   * heap, a cache miss each). The plan's order keeps those reads in order, and Works next to each other, which
   * often share an input, look up the same arrivals: computed cluster by cluster, or in the engine's order
   * (by profile), the summaries took two or three times as long.
   */
  private summarizeInputs(): void {
    const { engineIndexOf, C, n, chart, inputs, inputsStart, inputsEnd, fileSpecs, sizes, sendDur, availReady, summaryStale } = this;
    const summary = this.summary;
    // A run of Works next to each other often reads the same first input (a sweep's shared file): its size
    // and its arrival on each cluster are looked up once for the run (nothing changes the chart here).
    const arrivals0 = new Array<number | undefined>(C).fill(undefined);
    let file0Looked = -2;
    let bytes0 = 0;
    // Within such a run, a Work whose second input is available nowhere (a private parameter file, not sent
    // yet) and exactly as large as the last such Work's gets the same arguments to fewInputsSummary on every
    // cluster, so the same summary: it is copied from that Work's cells (`memoWork`, -1: none in this run).
    let memoWork = -1;
    let memoBytes1 = 0;
    for (let k = 0; k < engineIndexOf.length; k++) {
      const j = engineIndexOf[k]!;
      if (j < 0) continue;
      // Works with at most two distinct inputs (most): from the flat lists, their sizes read once for every cluster.
      const start = inputsStart[j]!;
      const count = inputsEnd[j]! - start;
      if (count > 2) {
        for (let c = 0; c < C; c++) this.summarize(j, c);
        continue;
      }
      const file0 = count > 0 ? inputs[start]! : -1;
      const file1 = count > 1 ? inputs[start + 1]! : -1;
      if (file0 !== file0Looked) {
        file0Looked = file0;
        memoWork = -1;
        bytes0 = count > 0 ? sizes.estSizeBytes(fileSpecs, file0) : 0;
        for (let c = 0; c < C; c++) arrivals0[c] = count > 0 ? chart.knownArrivalS(c, file0) : undefined;
      }
      const bytes1 = count > 1 ? sizes.estSizeBytes(fileSpecs, file1) : 0;
      const memoable = count === 2 && chart.availableNowhere(file1);
      if (memoable && memoWork >= 0 && Object.is(bytes1, memoBytes1)) {
        for (let c = 0; c < C; c++) {
          const cell = c * n + j;
          sendDur[cell] = sendDur[c * n + memoWork]!;
          availReady[cell] = availReady[c * n + memoWork]!;
          summaryStale[cell] = 0;
        }
        continue;
      }
      if (memoable) {
        memoWork = j;
        memoBytes1 = bytes1;
      }
      for (let c = 0; c < C; c++) {
        const arrival1 = count > 1 ? chart.knownArrivalS(c, file1) : undefined;
        chart.fewInputsSummary(c, count, arrivals0[c], bytes0, arrival1, bytes1, summary);
        const cell = c * n + j;
        sendDur[cell] = summary.missingCount === 0 ? -Infinity : summary.sendDurS;
        availReady[cell] = summary.availableReadyS;
        summaryStale[cell] = 0;
      }
    }
  }

  /**
   * Work j's inputs summary on cluster c, kept in its cell (sendDur is -Infinity when no input is missing):
   * from the flat lists when it has at most two distinct inputs (GanttChart.fewInputsSummary), else sorted
   * by usage (GanttChart.inputSummary).
   */
  private summarize(j: number, c: number): void {
    const cell = c * this.n + j;
    const start = this.inputsStart[j]!;
    const count = this.inputsEnd[j]! - start;
    let summary: InputSummary;
    if (count <= 2) {
      const { inputs, fileSpecs, sizes, chart } = this;
      const arrival0 = count > 0 ? chart.knownArrivalS(c, inputs[start]!) : undefined;
      const arrival1 = count > 1 ? chart.knownArrivalS(c, inputs[start + 1]!) : undefined;
      const bytes0 = count > 0 ? sizes.estSizeBytes(fileSpecs, inputs[start]!) : 0;
      const bytes1 = count > 1 ? sizes.estSizeBytes(fileSpecs, inputs[start + 1]!) : 0;
      summary = chart.fewInputsSummary(c, count, arrival0, bytes0, arrival1, bytes1, this.summary);
    } else {
      summary = this.chart.inputSummary(this.workOf(j), c, this.summary);
    }
    this.sendDur[cell] = summary.missingCount === 0 ? -Infinity : summary.sendDurS;
    this.availReady[cell] = summary.availableReadyS;
    this.summaryStale[cell] = 0;
  }

  /** Files newly planned on cluster c: their readers' inputs summaries there must be computed again. */
  private inputsPlanned(c: number, files: readonly number[]): void {
    const pool = this.pool;
    let left: number[] | undefined;
    for (const fileId of files) {
      for (let r = this.readerStart[fileId]!; r < this.readerStart[fileId + 1]!; r++) {
        const j = this.readerList[r]!;
        this.summaryStale[c * this.n + j] = 1;
        this.holdS[c * this.n + j] = NaN;
        // A pooled Work is host-bound only as long as its summaries hold.
        if (pool?.has(j) === true) {
          pool.remove(j);
          (left ??= []).push(j);
        }
      }
    }
    if (left !== undefined) for (const j of left) this.release(j);
  }

  /**
   * Brings every unplaced Work's cell of cluster c up to date after an assignment on `placedHost` (-1: the
   * first time, when no cell is computed yet), or computes only Work `only`'s afresh, or those of the first
   * `batchCount` Works of `batch` (in increasing order: memory order). With `rescoring`, scores
   * again the Works whose score may read a changed cell and returns the next best Work (-1: none). This is the
   * engine's hot loop: it runs in the engine's Work order, so that it reads the cluster's cells in memory
   * order.
   *
   * A cell is kept as it is when its inputs summary is current, its best (and second) host is not the one
   * placed on, and its input-ready time, with the link now busier, is still within holdS: then that host
   * ends as before, and every other host of c can only end later than before, so it cannot overtake them.
   *
   * Work `only`'s cell leaves the loop by `break`, never by its back edge. After an eager rule's long passes,
   * V8 keeps code compiled for entry at that back edge (on-stack replacement); once this function's own
   * optimized code was dropped (the lazy mode takes a path the eager rule never took), every single-cell call
   * reaching the back edge jumped into that code, and the function was not optimized again for most of the
   * run: Min-min ran 3 times slower in a process that had run Sufferage or Max-min before it.
   */
  private updateCells(c: number, placedHost: number, rescoring: boolean, only = -1, batch?: Int32Array, batchCount = 0): number {
    const { n, C, chart, active, profileOf, idOf, summaryStale, availReady, sendDur, holdS, outDur, c1ByWork, c2ByWork, e1, h1, e2, h2, w1, w2, bound, view } = this;
    // The keys at hand: V8 reloads a field of `this` after every call it does not inline (rescore, summarize).
    const { k1: key1, k2: key2, target } = this;
    const dur = this.fronts.durOf[c]!;
    const durStride = this.fronts.durStride[c]!;
    const base = c * n;
    const linkFreeS = chart.linkFreeS(c);
    const second = this.withSecond;
    const { host: hosts, free: frees, cls: classes, len } = (second ? this.fronts.second : this.fronts.best)[c]!;
    const watchesAll = this.rule.watchesAll;
    const clusterSufferage = this.rule.clusterSufferage === true;
    const pool = this.pool;
    const list = batch ?? this.activeList;
    const listed = rescoring || batch !== undefined;
    const afresh = only >= 0 || batch !== undefined;
    const count = only >= 0 ? 1 : batch !== undefined ? batchCount : rescoring ? this.activeCount : n;
    let stillActive = 0;
    let best = -1;
    let bestK1 = Infinity;
    let bestK2 = Infinity;
    const frees0 = len > 0 ? frees[0]! : Infinity;
    let reusedProfile = -1;
    let reusedBe = Infinity;
    let reusedBk = -1;
    let reusedSe = Infinity;
    let reusedSk = -1;
    let times: ClusterFreeTimes | undefined;
    for (let p = 0; p < count; p++) {
      const j = only >= 0 ? only : listed ? list[p]! : p;
      if (rescoring && active[j] === 0) continue;
      const cell = base + j;
      const oldH1 = h1[cell]!;
      const oldH2 = second ? h2[cell]! : -1;
      // The ready time only grows (the link gets busier), so the cell holds while it stays within holdS.
      const kept = !afresh && oldH1 !== placedHost && oldH2 !== placedHost && linkFreeS + sendDur[cell]! <= holdS[cell]!;
      let changed = false;
      // The cell's new best Compl when it was computed (then the score's test below reads it here, not from c1ByWork).
      let complS = 0;
      if (!kept) {
        if (summaryStale[cell] === 1) this.summarize(j, c);
        // GanttChart.inputReadyS, from the cached summary (sendDur is -Infinity when no input is missing).
        const readyS = Math.max(availReady[cell]!, linkFreeS + sendDur[cell]!);
        // Every host of the cluster adds the same output time, so ranking by (endS, free time, host) ranks
        // exactly as hostRankLess's (Compl, endS, free time, host); no host (-1) ranks last. The front is
        // in (free, host) order, so on equal endS the host met first wins, and once a host's free time plus
        // the Work's shortest duration reaches the endS to beat, no later host can beat it.
        const profile = profileOf[j]!;
        const durs = profile * durStride;
        const shortest = dur[durs + durStride - 1]!;
        // The best two hosts' Compl-less ends and positions in the front (-1: none).
        let be = Infinity;
        let bk = -1;
        let se = Infinity;
        let sk = -1;
        // A Work whose inputs are ready by the front's first free time starts on every host at its free time:
        // its result is its profile's, the last one scanned when the previous Work was of the same profile
        // (they come grouped by profile).
        const hostBound = readyS <= frees0;
        if (hostBound && profile === reusedProfile) {
          be = reusedBe;
          bk = reusedBk;
          se = reusedSe;
          sk = reusedSk;
        } else {
          for (let k = 0; k < len; k++) {
            if (frees[k]! + shortest >= (second ? se : be)) break;
            const endS = Math.max(frees[k]!, readyS) + dur[durs + classes[k]!]!;
            if (bk < 0 || endS < be) {
              se = be;
              sk = bk;
              be = endS;
              bk = k;
            } else if (sk < 0 || endS < se) {
              se = endS;
              sk = k;
            }
          }
          if (hostBound) {
            reusedProfile = profile;
            reusedBe = be;
            reusedBk = bk;
            reusedSe = se;
            reusedSk = sk;
          }
        }
        const bh = bk < 0 ? -1 : hosts[bk]!;
        const sh = sk < 0 ? -1 : hosts[sk]!;
        complS = be + outDur[cell]!;
        const byWork = j * C + c;
        // c1ByWork holds e1 + outDur (c2ByWork e2 + outDur), computed with every cell from the first pass on:
        // with e1 unchanged, the old Compl equals the new one unless both are NaN. So the pass never loads
        // from c1ByWork, which lies Work by Work: a cache line per visited Work.
        changed = oldH1 !== bh || e1[cell] !== be || complS !== complS;
        c1ByWork[byWork] = complS;
        e1[cell] = be;
        h1[cell] = bh;
        if (second) {
          const compl2S = se + outDur[cell]!;
          changed ||= oldH2 !== sh || e2[cell] !== se || compl2S !== compl2S;
          c2ByWork[byWork] = compl2S;
          e2[cell] = se;
          h2[cell] = sh;
        }
        // The front holds the chart's free times (HostFronts rebuilds it after every commit on the cluster).
        const waitsForItself = bk >= 0 && readyS <= frees[bk]! && (!second || sk < 0 || readyS <= frees[sk]!);
        holdS[cell] = waitsForItself ? Math.min(frees[bk]!, second && sk >= 0 ? frees[sk]! : Infinity) : readyS;
      }
      if (!rescoring) {
        if (only >= 0) break;
        continue;
      }
      // A kept cell fails the first test (nothing changed, its hosts are not the placed one): complS is set.
      if ((changed || h1[cell] === placedHost || (second && h2[cell] === placedHost)) && (watchesAll || c === w1[j] || c === w2[j] || !(complS > bound[j]!))) {
        const s = w2[j]!;
        if (clusterSufferage && c === w1[j] && s >= 0 && complS < c1ByWork[j * C + s]!) {
          // XSufferage's score with the same best two clusters (ScoreRule.clusterSufferage).
          key1[j] = -(c1ByWork[j * C + s]! - complS);
          target[j] = h1[cell]!;
        } else {
          // Every other cluster's cell is as the last score saw it: each change of one re-scored the Work
          // (or took it out of the pass, into the pool, which scores it afresh when it leaves).
          view.changed = c;
          this.rescore(j);
          view.changed = -1;
          if (active[j] === 0) continue;
        }
      }
      // (No placement during the pass: the clusters' free times are read once, at the first test.)
      if (pool !== undefined && pool.admits(j, (times ??= pool.freeTimes()))) {
        pool.add(j);
        continue;
      }
      list[stillActive++] = j;
      // ranksBefore(j, best), with best's key kept at hand.
      const k1 = key1[j]!;
      if (best < 0 || k1 < bestK1 || (k1 === bestK1 && (key2[j]! < bestK2 || (key2[j] === bestK2 && idOf[j]! < idOf[best]!)))) {
        best = j;
        bestK1 = k1;
        bestK2 = key2[j]!;
      }
    }
    if (rescoring) this.activeCount = stillActive;
    return best;
  }

  /** Ranks Work i from its cells (or drops it if it cannot be placed). */
  private rescore(i: number): void {
    const out = this.scratch;
    out.host = -1;
    out.watch1 = -1;
    out.watch2 = -1;
    out.boundS = Infinity;
    this.view.work = i;
    this.rule.score(this.view, out);
    if (out.host < 0 || Number.isNaN(out.k1) || Number.isNaN(out.k2)) {
      this.deactivate(i);
      return;
    }
    this.k1[i] = out.k1;
    this.k2[i] = out.k2;
    this.target[i] = out.host;
    this.w1[i] = out.watch1;
    this.w2[i] = out.watch2;
    this.bound[i] = out.boundS;
  }

  /** Work i ranks before Work j: a lower key (k1, then k2), then the lower index in the plan's Works. */
  private ranksBefore(i: number, j: number): boolean {
    const { k1, k2, idOf } = this;
    return k1[i]! < k1[j]! || (k1[i] === k1[j] && (k2[i]! < k2[j]! || (k2[i] === k2[j] && idOf[i]! < idOf[j]!)));
  }

  /** The Work to place next, given the best-ranked one: that one, or for randomized rules a draw near it. */
  private pick(best: number): number {
    const threshold = this.rule.threshold;
    if (threshold === undefined) return best;
    const limit = threshold(this.k1[best]!, this.chart.nowS, this.ctx.randomTolerance);
    // The candidates by increasing Work id: randomized rules make every Work its own class (constructor), so
    // the plan's order, read through engineIndexOf, is that order and needs no sort.
    if (this.pool?.drawWithin !== undefined) return this.pickWithPool(limit, this.pool);
    const { engineIndexOf, active, k1 } = this;
    const candidates = (this.candidates ??= new Int32Array(this.n));
    let count = 0;
    for (let w = 0; w < engineIndexOf.length; w++) {
      const i = engineIndexOf[w]!;
      if (i >= 0 && active[i] === 1 && k1[i]! <= limit) candidates[count++] = i;
    }
    return candidates[this.ctx.rng.int(count)]!;
  }

  /**
   * pick's draw when the pool draws among its own Works (drawWithin): every active Work is in the pass's list
   * or kept by the pool, whose k1 may be stale in the engine's array. The pool is given the pass's candidates.
   */
  private pickWithPool(limit: number, pool: ScoredByGroups): number {
    const { engineIndexOf, active, k1, activeList, idOf } = this;
    const candidates = (this.candidates ??= new Int32Array(this.n));
    let count = 0;
    for (let p = 0; p < this.activeCount; p++) {
      const i = activeList[p]!;
      if (active[i] === 1 && k1[i]! <= limit) candidates[count++] = idOf[i]!;
    }
    return engineIndexOf[pool.drawWithin!(limit, candidates, count, this.ctx.rng)]!;
  }

  /** Class i's Work was placed: its next Work, if any, stands for it (same cells, same score). */
  private nextStandsFor(i: number): boolean {
    const next = this.nextMember[i]!;
    if (next >= this.classes.start[this.classOrder[i]! + 1]!) return false;
    this.nextMember[i] = next + 1;
    this.idOf[i] = this.classes.list[next]!;
    return true;
  }

  /** The Work that item i stands for now. */
  private workOf(i: number): WorkSpec {
    return this.ctx.works[this.idOf[i]!]!;
  }

  private deactivate(i: number): void {
    this.active[i] = 0;
  }
}
