// Allocation quality over a whole run on a mesh or torus, accumulated job by job as JobMetrics does for
// wait and slowdown: the distribution of each multi-node job's mean pairwise hops and of its pieces, the
// share of such jobs in one piece, how full their bounding boxes are, the total pairwise hops, and
// fragmentation — node-seconds during which the waiting head job could not start although enough nodes
// were free (only contiguous allocation leaves such gaps).
import { QuantileSketch, type DistributionSummary } from '../quantile-sketch.js';
import type { AllocationQuality } from './allocation-quality.js';

export interface AllocationMetricsSummary {
  /** Jobs on more than one node (the others have no distances to measure). */
  readonly multiNodeJobs: number;
  readonly meanPairwiseHops: DistributionSummary;
  readonly totalPairwiseHops: number;
  readonly pieces: DistributionSummary;
  /** Share of multi-node jobs in one contiguous piece. */
  readonly contiguousShare: number;
  /** Mean over multi-node jobs of nodes / bounding-box volume (1 = a full box). */
  readonly meanBoxFill: number;
  readonly fragmentationNodeSeconds: number;
  /** fragmentationNodeSeconds / (machine nodes × span). */
  readonly fragmentation: number;
}

export class AllocationMetrics {
  private readonly hops = new QuantileSketch();
  private readonly piecesSketch = new QuantileSketch();
  private jobs = 0;
  private totalHops = 0;
  private onePiece = 0;
  private boxFill = 0;
  private fragmentedNodeSeconds = 0;

  constructor(private readonly machineNodes: number) {}

  started(nodes: number, q: AllocationQuality): void {
    if (nodes < 2) return;
    this.jobs++;
    this.hops.add(q.meanPairwiseHops);
    this.piecesSketch.add(q.pieces);
    this.totalHops += q.pairwiseHops;
    if (q.pieces === 1) this.onePiece++;
    const [a, b, c] = q.boundingBox;
    this.boxFill += nodes / (a * b * c);
  }

  fragmented(nodes: number, durationS: number): void {
    this.fragmentedNodeSeconds += nodes * durationS;
  }

  summary(spanS: number): AllocationMetricsSummary {
    const capacity = this.machineNodes * spanS;
    return {
      multiNodeJobs: this.jobs,
      meanPairwiseHops: this.hops.summary(),
      totalPairwiseHops: this.totalHops,
      pieces: this.piecesSketch.summary(),
      contiguousShare: this.jobs > 0 ? this.onePiece / this.jobs : 0,
      meanBoxFill: this.jobs > 0 ? this.boxFill / this.jobs : 0,
      fragmentationNodeSeconds: this.fragmentedNodeSeconds,
      fragmentation: capacity > 0 ? this.fragmentedNodeSeconds / capacity : 0,
    };
  }
}
