// Runs one SWF workload on one batch cluster under one policy (trace mode), with the optional schedule
// file and checker: what `gridsweep trace`, the experiment tool and the benchmark share.
import { getAllocator } from './allocators/registry.js';
import { allObservers, type ScheduleObserver } from './batch-cluster.js';
import type { StartedJob } from './job.js';
import { getBatchPolicy } from './policies/registry.js';
import { ScheduleChecker } from './schedule-checker.js';
import { SWF_STATUS, type SwfHeader } from './swf/fields.js';
import { SwfWorkload } from './swf/workload.js';
import { SwfWriter } from './swf/writer.js';
import { simulateTrace, type TraceResult } from './trace-simulation.js';

export interface TraceRunOptions {
  readonly workloadPath: string;
  /** Defaults from the SWF header (MaxNodes, MaxProcs); an error if neither gives them. */
  readonly nodes?: number;
  readonly coresPerNode?: number;
  readonly policy: string;
  readonly allocator: string;
  readonly boundedSlowdownThresholdS?: number;
  /** Write the simulated schedule here as SWF (wait time filled in), in the order jobs end. */
  readonly scheduleOut?: string;
  readonly check?: boolean;
}

export interface TraceRun extends TraceResult {
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly policy: string;
  readonly allocator: string;
  readonly jobsSkipped: number;
  /** The workload's header, every field in file order. */
  readonly header: SwfHeader;
  readonly warnings: readonly string[];
  /** Checker findings (empty unless `check`). */
  readonly violations: readonly string[];
}

/** The workload's header does not give the cluster's size, and the caller did not either. */
export class ClusterSizeUnknown extends Error {
  override readonly name = 'ClusterSizeUnknown';
}

export function runTrace(o: TraceRunOptions): TraceRun {
  const policy = getBatchPolicy(o.policy);
  const allocator = getAllocator(o.allocator);
  const workload = new SwfWorkload(o.workloadPath);
  let writer: SwfWriter | undefined;
  try {
    const { nodes, coresPerNode } = clusterShape(workload, o);
    workload.limitCores(nodes * coresPerNode);
    const observers: ScheduleObserver[] = [];
    const checker = o.check === true ? new ScheduleChecker({ nodes, coresPerNode }, policy.name) : undefined;
    if (checker !== undefined) observers.push(checker);
    if (o.scheduleOut !== undefined) {
      const out = new SwfWriter(o.scheduleOut, [['Note', `schedule simulated by gridsweep trace: ${policy.name}, ${allocator.name}; jobs in the order they ended`], ['MaxNodes', nodes], ['MaxProcs', nodes * coresPerNode]]);
      writer = out;
      observers.push({ ended: (s) => out.write(scheduleFields(s)) });
    }
    const result = simulateTrace(workload, { nodes, coresPerNode, policy, allocator, boundedSlowdownThresholdS: o.boundedSlowdownThresholdS, observer: allObservers(...observers) });
    writer?.close();
    let skipped = 0;
    for (const n of workload.skipped.counts.values()) skipped += n;
    return { ...result, nodes, coresPerNode, policy: policy.name, allocator: allocator.name, jobsSkipped: skipped, header: workload.header(), warnings: workload.warnings(), violations: checker?.violations() ?? [] };
  } catch (err) {
    writer?.abort();
    throw err;
  } finally {
    workload.close();
  }
}

function clusterShape(workload: SwfWorkload, o: TraceRunOptions): { nodes: number; coresPerNode: number } {
  const header = workload.header();
  const nodes = o.nodes ?? header.maxNodes;
  const coresPerNode = o.coresPerNode ?? (nodes !== undefined && header.maxProcs !== undefined ? Math.floor(header.maxProcs / nodes) : undefined);
  if (nodes === undefined || coresPerNode === undefined || !(nodes >= 1) || !(coresPerNode >= 1)) {
    throw new ClusterSizeUnknown(`${workload.path}: the header gives no cluster size (MaxNodes, MaxProcs); give --nodes and --cores-per-node`);
  }
  return { nodes, coresPerNode };
}

/** A simulated job as an SWF line: its wait, its real run, the cores it held, completed or killed. */
function scheduleFields(s: StartedJob): number[] {
  const j = s.job;
  return [j.id, j.submitS, s.startS - j.submitS, s.endS - s.startS, j.cores, -1, -1, j.cores, j.requestedS, -1, s.killed ? SWF_STATUS.failed : SWF_STATUS.completed, j.userId, -1, -1, -1, -1, -1, -1];
}
