// How good a task mapping is, by the distance metrics PReMAS reports (Bunde and Leung 2015): the
// hop-weighted message volume Σ bytes × hops(node(a), node(b)) over the pattern's edges (0 hops when both
// ranks share a node), and the mean hops per message; then the same over all jobs of a log.
import type { Topology } from '../machines/topology.js';
import type { Edge } from './patterns.js';

export interface JobScore {
  readonly job: number;
  /** The allocation log line the job came from. */
  readonly line: number;
  readonly nodes: number;
  readonly ranks: number;
  readonly messages: number;
  readonly hopWeightedBytes: number;
  /** Σ hops / messages; 0 for a job without messages (a single rank). */
  readonly meanHops: number;
}

/** Scores one mapping (rank → node) of a job whose ranks exchange `edges`, each edge's bytes × messageBytes. */
export function scoreMapping(topology: Topology, rankToNode: Int32Array, edges: readonly Edge[], messageBytes: number): { messages: number; hopWeightedBytes: number; meanHops: number } {
  let hops = 0;
  let weighted = 0;
  for (const [a, b, bytes] of edges) {
    const na = rankToNode[a]!;
    const nb = rankToNode[b]!;
    const d = na === nb ? 0 : topology.distance(na, nb);
    hops += d;
    weighted += d * bytes * messageBytes;
  }
  return { messages: edges.length, hopWeightedBytes: weighted, meanHops: edges.length === 0 ? 0 : hops / edges.length };
}

export interface MappingSummary {
  readonly mapper: string;
  readonly jobs: number;
  /** Jobs with at least one message (the means over jobs and best/worst count only these). */
  readonly jobsWithMessages: number;
  readonly messages: number;
  readonly totalHopWeightedBytes: number;
  readonly meanHopWeightedBytesPerJob: number;
  /** Σ hops over every message of every job / messages. */
  readonly meanHopsPerMessage: number;
  /** The plain mean of the jobs' mean hops. */
  readonly meanOfJobMeanHops: number;
  /** The jobs' mean hops weighted by their node counts. */
  readonly nodeWeightedMeanHops: number;
  /** Lowest and highest mean hops; ties to the job earlier in the log. */
  readonly best: JobScore | undefined;
  readonly worst: JobScore | undefined;
}

export function summarize(mapper: string, scores: readonly JobScore[]): MappingSummary {
  let messages = 0;
  let hops = 0;
  let weighted = 0;
  let withMessages = 0;
  let sumMeans = 0;
  let nodeWeightedSum = 0;
  let nodeWeight = 0;
  let best: JobScore | undefined;
  let worst: JobScore | undefined;
  for (const s of scores) {
    weighted += s.hopWeightedBytes;
    if (s.messages === 0) continue;
    messages += s.messages;
    hops += s.meanHops * s.messages;
    withMessages++;
    sumMeans += s.meanHops;
    nodeWeightedSum += s.meanHops * s.nodes;
    nodeWeight += s.nodes;
    if (best === undefined || s.meanHops < best.meanHops) best = s;
    if (worst === undefined || s.meanHops > worst.meanHops) worst = s;
  }
  return {
    mapper,
    jobs: scores.length,
    jobsWithMessages: withMessages,
    messages,
    totalHopWeightedBytes: weighted,
    meanHopWeightedBytesPerJob: scores.length === 0 ? 0 : weighted / scores.length,
    meanHopsPerMessage: messages === 0 ? 0 : hops / messages,
    meanOfJobMeanHops: withMessages === 0 ? 0 : sumMeans / withMessages,
    nodeWeightedMeanHops: nodeWeight === 0 ? 0 : nodeWeightedSum / nodeWeight,
    best,
    worst,
  };
}
