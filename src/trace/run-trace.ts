// Runs one SWF workload on one batch cluster under one policy (trace mode), with the optional schedule
// file and checker: what `gridsweep trace`, the experiment tool and the benchmark share.
import { allObservers, type ScheduleObserver } from '../batch/batch-cluster.js';
import { checkClusterChoice, createPlacement, machineOf } from '../batch/cluster-setup.js';
import type { StartedJob } from '../batch/job.js';
import { AllocationLogWriter } from '../batch/machines/allocation-log.js';
import { isTopology, type MachineSpec } from '../batch/machines/registry.js';
import { ScheduleChecker } from '../batch/schedule-checker.js';
import { SWF_STATUS, type SwfHeader } from '../batch/swf/fields.js';
import { SwfWorkload } from '../batch/swf/workload.js';
import { SwfWriter } from '../batch/swf/writer.js';
import { simulateTrace, type TraceResult } from '../batch/trace-simulation.js';

export interface TraceRunOptions {
  readonly workloadPath: string;
  /** `bag` (default), `mesh:XxY[xZ]` or `torus:XxY[xZ]`. */
  readonly machine?: string;
  /** Defaults from the SWF header (MaxNodes, MaxProcs), or the mesh's size; an error if nothing gives them. */
  readonly nodes?: number;
  readonly coresPerNode?: number;
  readonly policy: string;
  /** Defaults to the machine's default (cluster-setup.ts). */
  readonly allocator?: string;
  /** On a mesh or torus: write every job's nodes here (machines/allocation-log.ts). */
  readonly allocationLog?: string;
  readonly boundedSlowdownThresholdS?: number;
  /** Write the simulated schedule here as SWF (wait time filled in), in the order jobs end. */
  readonly scheduleOut?: string;
  readonly check?: boolean;
}

export interface TraceRun extends TraceResult {
  readonly machine: string;
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

/** The cluster's size: neither the workload's header nor the caller gives it, or it is more than gridsweep simulates. */
export class ClusterSizeError extends Error {
  override readonly name = 'ClusterSizeError';
}

export function runTrace(o: TraceRunOptions): TraceRun {
  const machine = machineOf(o.machine ?? 'bag');
  const { policy, allocator } = checkClusterChoice(machine, o.allocator, o.policy);
  if (o.allocationLog !== undefined && !isTopology(machine)) throw new ClusterSizeError('an allocation log needs a mesh or torus machine (--machine mesh:XxY[xZ]): the bag of cores has no geometry');
  const workload = new SwfWorkload(o.workloadPath);
  let writer: SwfWriter | undefined;
  let log: AllocationLogWriter | undefined;
  try {
    const { nodes, coresPerNode } = clusterShape(workload, o, machine);
    const placement = createPlacement(machine, { nodes, coresPerNode }, allocator);
    workload.limitCores(nodes * coresPerNode);
    const observers: ScheduleObserver[] = [];
    if (o.allocationLog !== undefined && isTopology(machine)) {
      const out = new AllocationLogWriter(o.allocationLog, { topology: machine, coresPerNode, allocator, policy: policy.name });
      log = out;
      observers.push({ started: (s) => out.write(s) });
    }
    const checker = o.check === true ? new ScheduleChecker({ nodes, coresPerNode }, policy.name) : undefined;
    if (checker !== undefined) observers.push(checker);
    if (o.scheduleOut !== undefined) {
      const out = new SwfWriter(o.scheduleOut, [['Note', `schedule simulated by gridsweep trace: ${policy.name}, ${allocator}${isTopology(machine) ? ` on ${machine.name}` : ''}; jobs in the order they ended`], ['MaxNodes', nodes], ['MaxProcs', nodes * coresPerNode]]);
      writer = out;
      observers.push({ ended: (s) => out.write(scheduleFields(s)) });
    }
    const result = simulateTrace(workload, { nodes, coresPerNode, policy, allocator: placement, boundedSlowdownThresholdS: o.boundedSlowdownThresholdS, observer: allObservers(...observers) });
    writer?.close();
    log?.close();
    let skipped = 0;
    for (const n of workload.skipped.counts.values()) skipped += n;
    return { ...result, machine: placement.machineName, nodes, coresPerNode, policy: policy.name, allocator, jobsSkipped: skipped, header: workload.header(), warnings: workload.warnings(), violations: checker?.violations() ?? [] };
  } catch (err) {
    writer?.abort();
    log?.abort();
    throw err;
  } finally {
    workload.close();
  }
}

/**
 * The cluster's size. On the bag: --nodes, else MaxNodes; --cores-per-node, else the header's node size
 * (MaxProcs / MaxNodes), else MaxProcs / nodes. On a mesh or torus the nodes are the mesh's, and the cores per node default to
 * MaxProcs / nodes from the header (at least 1), or 1 — PReMAS's nodes are single processors.
 */
function clusterShape(workload: SwfWorkload, o: TraceRunOptions, machine: MachineSpec): { nodes: number; coresPerNode: number } {
  const header = workload.header();
  if (isTopology(machine)) {
    if (o.nodes !== undefined && o.nodes !== machine.nodes) throw new ClusterSizeError(`--nodes ${o.nodes} disagrees with ${machine.name} (${machine.nodes} nodes); leave --nodes out`);
    const fromHeader = header.maxProcs !== undefined ? Math.max(1, Math.floor(header.maxProcs / machine.nodes)) : 1;
    return { nodes: machine.nodes, coresPerNode: o.coresPerNode ?? fromHeader };
  }
  // The header's node size (MaxProcs / MaxNodes) stays the node size when --nodes changes only the count:
  // `--nodes 64` means 64 of the machine's nodes, not the same cores spread over 64 nodes.
  const nodes = o.nodes ?? header.maxNodes;
  const headerNodeCores = header.maxNodes !== undefined && header.maxProcs !== undefined && header.maxNodes >= 1 ? Math.floor(header.maxProcs / header.maxNodes) : undefined;
  const coresPerNode = o.coresPerNode ?? headerNodeCores ?? (nodes !== undefined && header.maxProcs !== undefined ? Math.floor(header.maxProcs / nodes) : undefined);
  if (nodes === undefined || coresPerNode === undefined || !(nodes >= 1) || !(coresPerNode >= 1)) {
    throw new ClusterSizeError(`${workload.path}: the header gives no cluster size (MaxNodes, MaxProcs); give --nodes and --cores-per-node`);
  }
  return { nodes, coresPerNode };
}

/** A simulated job as an SWF line: its wait, its real run, the cores it held, completed or killed. */
function scheduleFields(s: StartedJob): number[] {
  const j = s.job;
  return [j.id, j.submitS, s.startS - j.submitS, s.endS - s.startS, j.cores, -1, -1, j.cores, j.requestedS, -1, s.killed ? SWF_STATUS.failed : SWF_STATUS.completed, j.userId, -1, -1, -1, -1, -1, -1];
}
