// Task mapping as post-processing (Bunde and Leung 2015, §III-B): every job of an allocation log is
// mapped by each chosen mapper and scored against one communication pattern, without re-running the
// schedule. Jobs of equal rank counts share one edge list.
import type { AllocationLogHeader, LoggedAllocation } from '../machines/allocation-log.js';
import { InputError } from '../../util/diagnostics.js';
import type { TaskMapper } from './mapper.js';
import { type CommunicationPattern, type Edge, PatternTooLargeError } from './patterns.js';
import { type JobScore, type MappingSummary, scoreMapping, summarize } from './score.js';

export interface MappedLog {
  readonly pattern: string;
  readonly messageBytes: number;
  /** One per mapper, in the order given. */
  readonly results: readonly { readonly summary: MappingSummary; readonly jobs: readonly JobScore[] }[];
}

export function mapAllocationLog(
  path: string,
  log: { readonly header: AllocationLogHeader; readonly jobs: readonly LoggedAllocation[] },
  pattern: CommunicationPattern,
  mappers: readonly TaskMapper[],
  messageBytes: number,
): MappedLog {
  const { topology, coresPerNode } = log.header;
  const edgesByRanks = new Map<number, Edge[]>();
  const edgesOf = (job: LoggedAllocation, ranks: number): Edge[] => {
    let edges = edgesByRanks.get(ranks);
    if (edges === undefined) {
      try {
        edges = pattern.edges(ranks);
      } catch (err) {
        if (err instanceof PatternTooLargeError) throw new InputError([{ severity: 'error', pos: { file: path, line: job.line, column: 1 }, message: `job ${job.job}: ${err.message}` }]);
        throw err;
      }
      edgesByRanks.set(ranks, edges);
    }
    return edges;
  };
  const results = mappers.map((mapper) => {
    const jobs = log.jobs.map((job): JobScore => {
      const ranks = job.nodes.length * coresPerNode;
      const rankToNode = mapper.map({ topology, nodes: job.nodes, coresPerNode, pattern });
      checkMapping(mapper.name, job, rankToNode, coresPerNode);
      return { job: job.job, line: job.line, nodes: job.nodes.length, ranks, ...scoreMapping(topology, rankToNode, edgesOf(job, ranks), messageBytes) };
    });
    return { summary: summarize(mapper.name, jobs), jobs };
  });
  return { pattern: pattern.name, messageBytes, results };
}

/** Every node of the job holds exactly C ranks — a mapper that breaks this is a bug, not bad input. */
function checkMapping(mapper: string, job: LoggedAllocation, rankToNode: Int32Array, coresPerNode: number): void {
  const held = new Map<number, number>();
  for (const v of job.nodes) held.set(v, 0);
  for (const v of rankToNode) {
    const k = held.get(v);
    if (k === undefined) throw new Error(`mapper ${mapper} put a rank of job ${job.job} on node ${v}, which the job does not hold`);
    held.set(v, k + 1);
  }
  for (const [v, k] of held) if (k !== coresPerNode) throw new Error(`mapper ${mapper} gave node ${v} of job ${job.job} ${k} ranks, not ${coresPerNode}`);
}
