// What happens when a task runs and fails (exits non-zero, or its outputs are missing): it should be retried
// on a host where it has not failed yet (hostsToAvoid, offered to the scheduler through the information
// port), up to `maxAttempts` failures (the scheduler's maxExitFailures, which gives the Work up). A host on
// which several tasks in a row failed is set aside for a while (doubling each time) and offered again.
import type { WorkId } from '../../src/model/application.js';
import type { HostId } from '../../src/model/grid.js';

export interface RetryPolicyOptions {
  /** Failed runs of one task before it fails for good. */
  readonly maxAttempts: number;
  /** Consecutive failures on one host before the host is set aside. */
  readonly hostFailuresToSetAside: number;
  readonly setAsideBaseS: number;
  readonly setAsideMaxS: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicyOptions = {
  maxAttempts: 3,
  hostFailuresToSetAside: 3,
  setAsideBaseS: 30,
  setAsideMaxS: 600,
};

export interface FailureVerdict {
  /** This was the task's last allowed failure. */
  readonly final: boolean;
  /** Set the host aside for this many seconds (undefined: keep using it). */
  readonly setHostAsideS?: number;
}

export class RetryPolicy {
  private readonly failedHosts = new Map<WorkId, Set<HostId>>();
  private readonly failures = new Map<WorkId, number>();
  private readonly consecutive = new Map<HostId, number>();
  private readonly timesSetAside = new Map<HostId, number>();

  constructor(readonly options: RetryPolicyOptions = DEFAULT_RETRY_POLICY) {}

  taskFailed(work: WorkId, host: HostId): FailureVerdict {
    const hosts = this.failedHosts.get(work) ?? new Set<HostId>();
    hosts.add(host);
    this.failedHosts.set(work, hosts);
    const n = (this.failures.get(work) ?? 0) + 1;
    this.failures.set(work, n);
    const c = (this.consecutive.get(host) ?? 0) + 1;
    this.consecutive.set(host, c);
    let setHostAsideS: number | undefined;
    if (c >= this.options.hostFailuresToSetAside) {
      const k = this.timesSetAside.get(host) ?? 0;
      this.timesSetAside.set(host, k + 1);
      this.consecutive.set(host, 0);
      setHostAsideS = Math.min(this.options.setAsideMaxS, this.options.setAsideBaseS * 2 ** k);
    }
    return { final: n >= this.options.maxAttempts, ...(setHostAsideS !== undefined ? { setHostAsideS } : {}) };
  }

  taskSucceeded(host: HostId): void {
    this.consecutive.set(host, 0);
  }

  /** False when the task already failed on this host. */
  mayRunOn(work: WorkId, host: HostId): boolean {
    return !(this.failedHosts.get(work)?.has(host) ?? false);
  }

  hostsToAvoid(work: WorkId): ReadonlySet<HostId> {
    return this.failedHosts.get(work) ?? new Set();
  }

  failureCount(work: WorkId): number {
    return this.failures.get(work) ?? 0;
  }
}
