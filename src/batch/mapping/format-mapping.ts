// `gridsweep map`'s outputs: the table of mappers (without --json) and the per-job CSV (--out).
import type { AllocationLogHeader } from '../machines/allocation-log.js';
import type { MappedLog } from './map-log.js';
import type { JobScore } from './score.js';

function n(x: number, digits = 2): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function job(s: JobScore | undefined): string {
  return s === undefined ? '-' : `${s.job} (${n(s.meanHops)})`;
}

export function formatMappedLog(m: MappedLog, header: AllocationLogHeader, logPath: string): string {
  const first = m.results[0]?.summary;
  const rows = [['mapper', 'hop-weighted bytes', 'mean hops/message', 'per-job mean', 'node-weighted', 'best job (hops)', 'worst job (hops)']];
  for (const { summary: s } of m.results) {
    rows.push([s.mapper, n(s.totalHopWeightedBytes), n(s.meanHopsPerMessage, 3), n(s.meanOfJobMeanHops, 3), n(s.nodeWeightedMeanHops, 3), job(s.best), job(s.worst)]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd());
  return [
    `log       ${logPath}: ${first?.jobs ?? 0} jobs on ${header.topology.name}, ${header.coresPerNode} core(s) a node (allocator ${header.allocator || '?'}, policy ${header.policy || '?'})`,
    `pattern   ${m.pattern}, ${n(m.messageBytes)} byte(s) a message, ${first?.messages ?? 0} messages in all`,
    '',
    ...table,
  ].join('\n');
}

export const MAPPING_CSV_HEADER = 'mapper,job,line,nodes,ranks,messages,hop_weighted_bytes,mean_hops';

/** One row per mapper and job, mappers in the order run, jobs in log order. */
export function mappingCsv(m: MappedLog): string {
  const lines = [MAPPING_CSV_HEADER];
  for (const { summary, jobs } of m.results) {
    for (const j of jobs) lines.push([summary.mapper, j.job, j.line, j.nodes, j.ranks, j.messages, j.hopWeightedBytes, j.meanHops].join(','));
  }
  return lines.join('\n') + '\n';
}
