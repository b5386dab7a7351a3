// Where each Work of a real run stands, from the controller's side: attempts made, computed (outputs in a
// cluster's storage, not yet verified at the origin: where, under which work key), done (verified) or
// given up (with why), the stderr tail of its last failed attempt, and how many are left. `allDone` is
// called once no Work is left.
import type { WorkId } from '../../../src/model/application.js';
import type { ClusterId, HostId } from '../../../src/model/grid.js';
import type { ReportedOutputs } from '../origin-outputs.js';

export interface ComputedWork extends ReportedOutputs {
  readonly host: HostId;
}

export class WorkLedger {
  readonly attempts = new Map<WorkId, number>();
  readonly computed = new Map<WorkId, ComputedWork>();
  readonly finished = new Set<WorkId>();
  /** Works given up, each with why. */
  readonly failedForGood = new Map<WorkId, string>();
  /** The stderr tail of each Work's last failed attempt (forgotten when it succeeds). */
  readonly lastStderr = new Map<WorkId, string>();
  readonly remaining: Set<WorkId>;

  constructor(
    works: readonly WorkId[],
    /** The cluster of a host (to find the Works computed in a cluster). */
    private readonly clusterOf: (host: HostId) => ClusterId,
    private readonly allDone: () => void,
  ) {
    this.remaining = new Set(works);
    if (this.remaining.size === 0) allDone();
  }

  /** The next attempt's number for `work` (1 for its first), counted. */
  nextAttempt(work: WorkId): number {
    const attempt = (this.attempts.get(work) ?? 0) + 1;
    this.attempts.set(work, attempt);
    return attempt;
  }

  /** Still to do and not computed somewhere already. */
  awaitingComputation(work: WorkId): boolean {
    return this.remaining.has(work) && !this.computed.has(work);
  }

  /** The Works computed in cluster `clusterId` whose outputs are not at the origin yet. */
  computedIn(clusterId: ClusterId): [WorkId, ComputedWork][] {
    return [...this.computed].filter(([, done]) => this.clusterOf(done.host) === clusterId);
  }

  /** Verified at the origin, or given up: no longer waited for. */
  markFinished(work: WorkId): void {
    if (!this.failedForGood.has(work)) this.finished.add(work);
    this.remaining.delete(work);
    if (this.remaining.size === 0) this.allDone();
  }
}
