// linkPlan: the Gantt chart do_plan() fills (Berman et al. 1999, §5.5 Fig. 6, §7.4). One timeline per cluster link
// and per host, plus the Host×Work completion table. It is also the ONE place where Compl(T, H) is defined.
//
// ─── HOW Compl(T, H) IS COMPUTED ──────────────────────────────────────────────────────────────────────────
// H is a host of cluster c. Every rate is an estimate frozen when the plan starts (src/scheduler/estimates.ts):
// the link's latencyS and bandwidthBps, the host's availability (0–1) and architecture.
//
//  1. Inputs. An input of T is AVAILABLE in c when it is stored in c's storage (arrival = now), in flight on
//     c's link (arrival = the estimated end of that transfer) or already planned for c in this chart (arrival
//     = its planned arrival). An available file is never sent again. The other inputs (MISSING) are ordered
//     by decreasing usage (§5.6.4: the number of not-started Works reading the file, counted when the plan
//     starts; ties: lower file id) and sent back to back from linkFreeS(c), the time c's link is next free:
//        sendDurS     = Σ over missing files, in that order, starting from 0, of (latencyS + estSizeBytes / bandwidthBps)
//        inputReadyS  = max( latest arrival of the available inputs (now when there are none),
//                            linkFreeS(c) + sendDurS   — only when some input is missing )
//  2. Compute.  startS = max(hostFreeS(H), inputReadyS)
//               endS   = startS + estRunTimeS[arch(H)] / availability(H)
//  3. Outputs.  outDurS = latencyS + Σ outputs' estSizeBytes / bandwidthBps   (0 when the Work has no output)
//               Compl(T, H) = endS + outDurS
//     Compl therefore INCLUDES bringing the outputs back, estimated as leaving the moment the compute ends
//     (the output itself does not wait for the link in the estimate).
//
//  Link contention: each link is one append-only timeline. Committing an assignment puts its missing inputs
//  on c's link at linkFreeS(c) (so later Works wait behind them), then reserves outDurS more link time
//  (linkFreeS(c) += outDurS): every byte a Work moves is counted against its link, though the output entry
//  is drawn in the chart at endS, which is where it falls when the link FIFO is ordered (step 7).
//  Running transfers hold the link until their estimated end; outputs still to bring back (computing or
//  computed Works) are reserved the same way when the chart is built.
//
//  Hosts of equal Compl are ranked by (Compl, endS, hostFreeS, host order); host order is cluster id, then
//  host id (plain string order). Heuristics rank Works with ties going to the lowest Work id.
// ────────────────────────────────────────────────────────────────────────────────────────────────────────────
import type { FileId, FileSpec, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import { byDecreasingUsage } from './input-order.js';
import type { HostCandidates } from './strategies/host-candidates.js';

export interface ChartCluster {
  readonly id: ClusterId;
  readonly latencyS: number;
  readonly bandwidthBps: number;
}

export interface ChartHost {
  readonly id: HostId;
  /** Index into the chart's clusters. */
  readonly cluster: number;
  readonly arch: number;
  /** Forecast CPU availability, 0 < a ≤ 1. */
  readonly availability: number;
}

export interface ChartSetup {
  readonly nowS: number;
  /** t(i+1) + Δ: a host is full once it has a compute planned to start after this time. */
  readonly horizonS: number;
  /** The most Works a heuristic may place (strategies/plan-fill.ts 'per-host'); default: no limit. */
  readonly maxPlacements?: number;
  readonly clusters: readonly ChartCluster[];
  /** Sorted in host order (cluster id, then host id). */
  readonly hosts: readonly ChartHost[];
  readonly files: readonly FileSpec[];
  /** §5.6.4 usage of each file (not-started Works reading it); absent means 0. */
  readonly usage: ReadonlyMap<FileId, number>;
}

/** What a Work's missing inputs cost on one cluster's link (step 1 above). */
export interface InputSummary {
  missingCount: number;
  sendDurS: number;
  /** Latest arrival among the available inputs (now when none). */
  availableReadyS: number;
}

/** One row of the completion table: a Work placed on a host. */
export interface Assignment {
  readonly workId: WorkId;
  readonly host: number;
  readonly startS: number;
  readonly endS: number;
  readonly complS: number;
  /** Kept from the previous plan (truncated FIFO head) rather than chosen by the heuristic. */
  readonly kept: boolean;
  /** Inputs this assignment puts on the link, in sending order. */
  readonly sentFiles: readonly FileId[];
}

/** An entry of a link timeline, for building the link FIFO (step 7). */
export type LinkEntry =
  | { readonly kind: 'input'; readonly fileId: FileId; readonly startS: number; readonly seq: number; readonly kept: boolean }
  | { readonly kind: 'output'; readonly workId: WorkId; readonly startS: number; readonly seq: number; readonly kept: boolean };

export class GanttChart {
  readonly nowS: number;
  readonly horizonS: number;
  private readonly maxPlacements: number;
  /** Works the heuristic has placed (kept ones not counted). */
  private placed = 0;
  readonly clusters: readonly ChartCluster[];
  readonly hosts: readonly ChartHost[];
  private readonly files: readonly FileSpec[];
  private readonly usage: ReadonlyMap<FileId, number>;

  private readonly linkFree: Float64Array;
  private readonly hostFree: Float64Array;
  private readonly hostLastStart: Float64Array;
  private readonly hostHasWork: Uint8Array;
  private readonly hostClosed: Uint8Array;
  private readonly fileArrival: Map<FileId, number>[];
  /**
   * Per file, bit (c mod 8) set once cluster c's fileArrival lists it; kept from indexArrivals() on. A clear bit
   * answers "not available there" without a Map lookup: a lookup per input and cluster was most of the cost of
   * the MctEngine's input summaries, and most inputs of the Works not started are available nowhere.
   */
  private arrivalBits: Uint8Array | undefined;
  private readonly sortedInputsCache = new Map<WorkId, readonly FileId[]>();
  private fullCount = 0;
  private seq = 0;

  readonly assignments: Assignment[] = [];
  readonly linkEntries: LinkEntry[][];

  constructor(setup: ChartSetup) {
    this.nowS = setup.nowS;
    this.horizonS = setup.horizonS;
    this.maxPlacements = setup.maxPlacements ?? Infinity;
    this.clusters = setup.clusters;
    this.hosts = setup.hosts;
    this.files = setup.files;
    this.usage = setup.usage;
    this.linkFree = new Float64Array(setup.clusters.length).fill(setup.nowS);
    this.hostFree = new Float64Array(setup.hosts.length).fill(setup.nowS);
    this.hostLastStart = new Float64Array(setup.hosts.length).fill(-Infinity);
    this.hostHasWork = new Uint8Array(setup.hosts.length);
    this.hostClosed = new Uint8Array(setup.hosts.length);
    this.fileArrival = setup.clusters.map(() => new Map<FileId, number>());
    this.linkEntries = setup.clusters.map(() => []);
  }

  // ── Filling in what cannot change (step 3) ──

  /** A transfer is running on the link until `untilS` (estimated). */
  holdLink(cluster: number, untilS: number): void {
    this.linkFree[cluster] = Math.max(this.linkFree[cluster]!, untilS);
  }

  /** A file is (or will be, at `arrivalS`) in the cluster's storage without being planned here. */
  markFile(cluster: number, fileId: FileId, arrivalS: number): void {
    const map = this.fileArrival[cluster]!;
    const known = map.get(fileId);
    if (known === undefined || arrivalS < known) map.set(fileId, arrivalS);
    this.noteArrival(cluster, fileId);
  }

  /** Keeps per-file bits of which clusters list each file (for heuristics that summarize many Works' inputs). */
  indexArrivals(): void {
    if (this.arrivalBits !== undefined) return;
    this.arrivalBits = new Uint8Array(this.files.length);
    this.fileArrival.forEach((map, c) => {
      for (const fileId of map.keys()) this.noteArrival(c, fileId);
    });
  }

  private noteArrival(cluster: number, fileId: FileId): void {
    const bits = this.arrivalBits;
    if (bits === undefined) return;
    // A file id the array cannot hold (not an index into files): no bits kept from here on.
    if (Number.isInteger(fileId) && fileId >= 0 && fileId < bits.length) bits[fileId] = bits[fileId]! | (1 << (cluster & 7));
    else this.arrivalBits = undefined;
  }

  /** A computation is running on the host until `untilS` (estimated). */
  holdHost(host: number, untilS: number, startedS: number): void {
    this.hostFree[host] = Math.max(this.hostFree[host]!, untilS);
    this.hostHasWork[host] = 1;
    this.setLastStart(host, startedS);
  }

  /** The host takes nothing new this plan (it is leaving the run): it counts as full and is no heuristic's candidate. */
  closeHost(host: number): void {
    this.hostClosed[host] = 1;
    this.setLastStart(host, Infinity);
  }

  /** The outputs of a started Work still have to come back over the link once ready (at `readyS`). */
  reserveOutput(work: WorkSpec, cluster: number, readyS: number): void {
    this.linkFree[cluster] = this.linkFree[cluster]! + this.outputDurationS(work, cluster);
    this.linkEntries[cluster]!.push({ kind: 'output', workId: work.id, startS: readyS, seq: this.seq++, kept: true });
  }

  // ── Compl (see the block comment at the top) ──

  /** The Work's inputs, deduplicated, by decreasing usage then increasing file id. */
  sortedInputs(work: WorkSpec): readonly FileId[] {
    // One or two inputs (most Works) are put in order on each call; more are sorted once per chart.
    if (work.inputs.length <= 2) return byDecreasingUsage(work.inputs, this.usage);
    let sorted = this.sortedInputsCache.get(work.id);
    if (sorted === undefined) {
      sorted = byDecreasingUsage(work.inputs, this.usage);
      this.sortedInputsCache.set(work.id, sorted);
    }
    return sorted;
  }

  /** One transfer's estimated duration over the cluster's link. */
  transferDurationS(cluster: number, sizeBytes: number): number {
    const link = this.clusters[cluster]!;
    return link.latencyS + sizeBytes / link.bandwidthBps;
  }

  inputSummary(work: WorkSpec, cluster: number, out: InputSummary = { missingCount: 0, sendDurS: 0, availableReadyS: 0 }): InputSummary {
    this.startSummary(out);
    // The order only matters to the sum of three or more send times: Works with up to two distinct
    // inputs need no sorting (a + b = b + a exactly).
    const inputs = work.inputs;
    const few = inputs.length <= 1 || (inputs.length === 2 && inputs[0] !== inputs[1]);
    for (const fileId of few ? inputs : this.sortedInputs(work)) {
      const arrival = this.knownArrivalS(cluster, fileId);
      this.addInput(cluster, arrival, arrival === undefined ? this.files[fileId]!.estSizeBytes : 0, out);
    }
    return out;
  }

  /**
   * inputSummary of a Work with at most two distinct inputs (`count` of them: file 0, then file 1), given each
   * one's arrival in the cluster (knownArrivalS: undefined when it is not available there) and estimated size:
   * the same values without reading the Work or its files. Two send times add up alike in either order
   * (0 + a + b = 0 + b + a exactly), so the usage order plays no part.
   */
  fewInputsSummary(
    cluster: number,
    count: number,
    arrival0: number | undefined,
    bytes0: number,
    arrival1: number | undefined,
    bytes1: number,
    out: InputSummary,
  ): InputSummary {
    this.startSummary(out);
    if (count > 0) this.addInput(cluster, arrival0, bytes0, out);
    if (count > 1) this.addInput(cluster, arrival1, bytes1, out);
    return out;
  }

  private startSummary(out: InputSummary): void {
    out.missingCount = 0;
    out.sendDurS = 0;
    out.availableReadyS = this.nowS;
  }

  /** One input into the summary: sent after the others when missing (arrival undefined), else waited for. */
  private addInput(cluster: number, arrival: number | undefined, sizeBytes: number, out: InputSummary): void {
    if (arrival === undefined) {
      out.missingCount++;
      out.sendDurS += this.transferDurationS(cluster, sizeBytes);
    } else if (arrival > out.availableReadyS) {
      out.availableReadyS = arrival;
    }
  }

  /** The file's arrival in the cluster (fileArrivalS), answered from the bits when they say it is not there. */
  knownArrivalS(cluster: number, fileId: FileId): number | undefined {
    const bits = this.arrivalBits;
    return bits !== undefined && (bits[fileId]! & (1 << (cluster & 7))) === 0 ? undefined : this.fileArrival[cluster]!.get(fileId);
  }

  /**
   * The file is listed in no cluster's arrivals (knownArrivalS is undefined on every cluster), answered from
   * the bits; false when no bits are kept (indexArrivals) and the answer would need a lookup per cluster.
   */
  availableNowhere(fileId: FileId): boolean {
    const bits = this.arrivalBits;
    return bits !== undefined && bits[fileId] === 0;
  }

  inputReadyS(summary: InputSummary, cluster: number): number {
    if (summary.missingCount === 0) return summary.availableReadyS;
    return Math.max(summary.availableReadyS, this.linkFree[cluster]! + summary.sendDurS);
  }

  computeEndS(work: WorkSpec, host: number, inputReadyS: number): number {
    const h = this.hosts[host]!;
    const runS = work.estRunTimeS[h.arch] ?? Infinity;
    return Math.max(this.hostFree[host]!, inputReadyS) + runS / h.availability;
  }

  outputDurationS(work: WorkSpec, cluster: number): number {
    const bytes = this.outputBytes(work);
    return bytes === undefined ? 0 : this.transferDurationS(cluster, bytes);
  }

  /** The estimated size of the Work's outputs in all; undefined when it has none (nothing to send back). */
  outputBytes(work: WorkSpec): number | undefined {
    if (work.outputs.length === 0) return undefined;
    let bytes = 0;
    for (const fileId of work.outputs) bytes += this.files[fileId]!.estSizeBytes;
    return bytes;
  }

  /** Compl(T, H) and the compute end it comes from, computed from scratch. */
  compl(work: WorkSpec, host: number): { complS: number; endS: number } {
    const cluster = this.hosts[host]!.cluster;
    const endS = this.computeEndS(work, host, this.inputReadyS(this.inputSummary(work, cluster), cluster));
    return { complS: endS + this.outputDurationS(work, cluster), endS };
  }

  // ── Placing a Work (steps 4–6) ──

  /** Places `work` on `host`: missing inputs on the link, the compute, the output. Returns the new row. */
  commit(work: WorkSpec, host: number, kept = false): Assignment {
    const cluster = this.hosts[host]!.cluster;
    const arrivals = this.fileArrival[cluster]!;
    const entries = this.linkEntries[cluster]!;
    const summary = this.inputSummary(work, cluster);
    const inputReadyS = this.inputReadyS(summary, cluster);
    const linkStartS = this.linkFree[cluster]!;
    const sentFiles: FileId[] = [];
    let sentS = 0;
    for (const fileId of this.sortedInputs(work)) {
      if (arrivals.has(fileId)) continue;
      entries.push({ kind: 'input', fileId, startS: linkStartS + sentS, seq: this.seq++, kept });
      sentS += this.transferDurationS(cluster, this.files[fileId]!.estSizeBytes);
      arrivals.set(fileId, linkStartS + sentS);
      this.noteArrival(cluster, fileId);
      sentFiles.push(fileId);
    }
    if (sentFiles.length > 0) this.linkFree[cluster] = linkStartS + summary.sendDurS;
    const startS = Math.max(this.hostFree[host]!, inputReadyS);
    const endS = this.computeEndS(work, host, inputReadyS);
    const outDurS = this.outputDurationS(work, cluster);
    this.hostFree[host] = endS;
    this.hostHasWork[host] = 1;
    this.setLastStart(host, startS);
    this.linkFree[cluster] = this.linkFree[cluster]! + outDurS;
    entries.push({ kind: 'output', workId: work.id, startS: endS, seq: this.seq++, kept });
    const row: Assignment = { workId: work.id, host, startS, endS, complS: endS + outDurS, kept, sentFiles };
    this.assignments.push(row);
    if (!kept) this.placed++;
    return row;
  }

  private setLastStart(host: number, startS: number): void {
    const wasFull = this.isFull(host);
    if (startS > this.hostLastStart[host]!) this.hostLastStart[host] = startS;
    if (!wasFull && this.isFull(host)) this.fullCount++;
  }

  // ── Reading the chart ──

  /** File ids run from 0 to fileCount − 1. */
  get fileCount(): number {
    return this.files.length;
  }

  /** The files' specifications, by id (as the chart was given them). */
  get fileSpecs(): readonly FileSpec[] {
    return this.files;
  }

  hostFreeS(host: number): number {
    return this.hostFree[host]!;
  }

  linkFreeS(cluster: number): number {
    return this.linkFree[cluster]!;
  }

  /** Planned (or known) arrival of a file in a cluster, if any. */
  fileArrivalS(cluster: number, fileId: FileId): number | undefined {
    return this.fileArrival[cluster]!.get(fileId);
  }

  /** The host has a compute planned to start after the horizon, or is closed: it needs nothing more this plan (step 6). */
  isFull(host: number): boolean {
    return this.hostLastStart[host]! > this.horizonS;
  }

  /** Some host still wants work, and the plan may place more. */
  hasRoom(): boolean {
    return this.fullCount < this.hosts.length && this.placed < this.maxPlacements;
  }

  /** A heuristic may place a Work on the host: it is not closed and, under 'with-room', not full. */
  takesWork(host: number, candidates: HostCandidates = 'all'): boolean {
    return this.hostClosed[host] === 0 && (candidates === 'all' || !this.isFull(host));
  }

  /** Nothing is running or planned on the host. */
  isIdle(host: number): boolean {
    return this.hostHasWork[host] === 0;
  }
}
