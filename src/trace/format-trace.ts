// The human-readable report of a trace run (`gridsweep trace` without --json).
import type { AllocationMetricsSummary } from '../batch/machines/allocation-metrics.js';
import type { DistributionSummary } from '../batch/quantile-sketch.js';
import type { TraceRun } from './run-trace.js';
import { headerValue, type SwfHeader } from '../batch/swf/fields.js';

function n(x: number, digits = 1): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function distribution(label: string, d: DistributionSummary, unit: string): string {
  return `${label.padEnd(18)} mean ${n(d.mean)}${unit} ± ${n(d.sd)}  median ${n(d.median)}${unit}  p95 ${n(d.p95)}${unit}  max ${n(d.max)}${unit}`;
}

export function formatTraceRun(r: TraceRun, workloadPath: string): string {
  const m = r.metrics;
  return [
    `workload           ${workloadPath}: ${n(m.jobs, 0)} jobs simulated, ${n(r.jobsSkipped, 0)} skipped`,
    ...formatSwfHeader(r.header).map((line) => `                   ${line}`),
    `cluster            ${r.machine === 'bag' ? '' : `${r.machine}, `}${r.nodes} nodes × ${r.coresPerNode} cores, policy ${r.policy}, allocator ${r.allocator}`,
    `span               ${n(m.spanS, 0)} s (${n(m.spanS / 86_400, 2)} days), ${n(m.killed, 0)} jobs killed at their time limit`,
    distribution('wait', m.waitS, ' s'),
    distribution('response', m.responseS, ' s'),
    distribution('slowdown', m.slowdown, ''),
    distribution(`bounded slowdown`, m.boundedSlowdown, ''),
    `                   (bounded slowdown threshold ${m.boundedSlowdownThresholdS} s)`,
    `utilization        ${n(m.utilization * 100, 2)} %   loss of capacity ${n(m.lossOfCapacity * 100, 2)} %`,
    `queue length       time-weighted mean ${n(m.queueLength.timeMean, 2)}, max ${n(m.queueLength.max, 0)}`,
    `throughput         ${n(m.throughputJobsPerHour, 2)} jobs/hour`,
    ...allocationLines(m.allocation),
  ].join('\n');
}

function allocationLines(a: AllocationMetricsSummary | undefined): string[] {
  if (a === undefined) return [];
  return [
    distribution('pairwise hops', a.meanPairwiseHops, ''),
    `                   (mean over a job's node pairs; ${n(a.multiNodeJobs, 0)} jobs on more than one node, ${n(a.totalPairwiseHops, 0)} pairwise hops in all)`,
    `pieces             mean ${n(a.pieces.mean, 2)}, max ${n(a.pieces.max, 0)}; ${n(a.contiguousShare * 100, 1)} % of multi-node jobs in one piece; bounding boxes ${n(a.meanBoxFill * 100, 1)} % full`,
    `fragmentation      ${n(a.fragmentation * 100, 2)} % (${n(a.fragmentationNodeSeconds, 0)} node-seconds free while the head job could not be placed)`,
  ];
}

/** Header fields shown by name; the rest are counted (`--json` lists them all). */
const SHOWN_FIELDS = ['Computer', 'Installation', 'Version', 'MaxNodes', 'MaxProcs', 'MaxJobs', 'StartTime', 'EndTime'] as const;

/**
 * The workload's header in at most three lines: who and where (Computer, Installation, Version), its size
 * (MaxNodes, MaxProcs, MaxJobs), its span (StartTime – EndTime), and how many other fields it has. A value
 * running over several lines shows its first. Nothing for a file without a header.
 */
export function formatSwfHeader(header: SwfHeader): string[] {
  const value = (key: string): string | undefined => headerValue(header, key)?.split('\n')[0];
  const pairs = (keys: readonly string[], sep: string): string => keys.flatMap((k) => (value(k) === undefined ? [] : [`${k}${sep}${value(k)}`])).join(', ');
  const shown = new Set<string>(SHOWN_FIELDS.map((k) => k.toLowerCase()));
  const others = header.fields.filter((f) => !shown.has(f.key.toLowerCase())).length;
  const lines = [pairs(['Computer', 'Installation', 'Version'], ': '), pairs(['MaxNodes', 'MaxProcs', 'MaxJobs'], ' '), [value('StartTime'), value('EndTime')].some((v) => v !== undefined) ? `${value('StartTime') ?? '?'} – ${value('EndTime') ?? '?'}` : ''];
  if (others > 0) lines.push(`${others} other header field${others === 1 ? '' : 's'} (--json lists them)`);
  return lines.filter((l) => l !== '');
}

/** The batch clusters of a simulated sweep, for `simulate`'s report. */
export function formatBatchSites(sites: readonly BatchSiteSummary[]): string[] {
  if (sites.length === 0) return [];
  const lines = ['', 'batch clusters:'];
  for (const s of sites) {
    const m = s.metrics;
    lines.push(
      `  ${s.cluster}: ${s.nodes} nodes × ${s.coresPerNode} cores, ${s.policy}${s.gangMpl === undefined ? '' : `, gang MPL ${s.gangMpl}`}, ${s.allocator}; pilots ${s.pilotsStarted} started of ${s.pilotsSubmitted} submitted, mean wait ${n(s.pilotMeanWaitS)} s${s.pilotsGivenUp ? '; submission stopped: pilots in a row ran no Work (Works longer than --pilot-walltime?)' : ''}`,
      `    jobs ended ${n(m.jobs, 0)} (background and pilots), mean wait ${n(m.waitS.mean)} s, mean bounded slowdown ${n(m.boundedSlowdown.mean, 2)}, utilization ${n(m.utilization * 100, 2)} %`,
    );
  }
  return lines;
}

/** What formatBatchSites needs of a batch site's outcome (backends/sim/batch-site.ts). */
export interface BatchSiteSummary {
  readonly cluster: string;
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly policy: string;
  readonly allocator: string;
  /** Gang-scheduled clusters only. */
  readonly gangMpl?: number;
  readonly metrics: TraceRun['metrics'];
  readonly pilotsSubmitted: number;
  readonly pilotsStarted: number;
  readonly pilotMeanWaitS: number;
  readonly pilotsGivenUp: boolean;
}
