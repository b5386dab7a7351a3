// Trace mode: one batch cluster, one workload, one policy — the job AccaSim and ClusterSchedSim do. Jobs
// are pulled from the source only when the clock reaches their submit time, and forgotten when they end,
// so memory follows the number of waiting and running jobs, not the trace's length.
import type { BatchJob } from './job.js';
import { BatchCluster, type ScheduleObserver } from './batch-cluster.js';
import type { JobMetricsSummary } from './job-metrics.js';
import type { Allocator } from './allocators/allocator.js';
import type { Placement } from './placement.js';
import type { BatchPolicy } from './policies/policy.js';

export interface JobSource {
  next(): BatchJob | undefined;
}

export interface TraceOptions {
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly policy: BatchPolicy;
  /** Where jobs run: a placement (a mesh or torus, or the bag), or a core allocator on the bag of cores. */
  readonly allocator: Allocator | Placement;
  readonly boundedSlowdownThresholdS?: number;
  readonly observer?: ScheduleObserver;
}

export interface TraceResult {
  readonly metrics: JobMetricsSummary;
  /** Submissions and job ends processed. */
  readonly events: number;
}

export function simulateTrace(source: JobSource, options: TraceOptions): TraceResult {
  const cluster = new BatchCluster({ nodes: options.nodes, coresPerNode: options.coresPerNode }, options.policy, options.allocator, options.observer, options.boundedSlowdownThresholdS);
  let next = source.next();
  let events = 0;
  for (;;) {
    const nowS = Math.min(next?.submitS ?? Infinity, cluster.nextEndS());
    if (nowS === Infinity) break;
    cluster.advanceTo(nowS);
    const running = cluster.runningJobs;
    cluster.endDueJobs();
    events += running - cluster.runningJobs;
    while (next !== undefined && next.submitS === nowS) {
      cluster.submit(next);
      events++;
      next = source.next();
    }
    cluster.dispatch();
  }
  return { metrics: cluster.summary(), events };
}
