// Whether a real run can still get hosts. A machine of the real grid file may come back while its hosts
// have not left for good (a host that fails is retried), and a batch cluster brings hosts while its pool
// submits jobs or has jobs alive. Once every pool has given its cluster up (src/batch/submission.ts's rule)
// and no other machine with hosts is left, nothing can run the Works left: the run ends unfinished, as a
// simulation does when its grid can make no more progress, instead of waiting for ever.
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { Endpoint } from '../transport/endpoint.js';
import type { HostPool } from '../transport/registry.js';

export class HostsToCome {
  private readonly machines: Endpoint[] = [];
  private readonly exhausted = new Map<ClusterId, string>();
  private ended: ((why: string) => void) | undefined;
  private whyNone: string | undefined;
  /** Resolves, with why, once no host can come any more. */
  readonly noneLeft: Promise<string>;

  constructor() {
    this.noneLeft = new Promise((resolve) => (this.ended = resolve));
  }

  /** A machine of the real grid file (at the start, or added by an edit); returns it. */
  machine(e: Endpoint): Endpoint {
    this.machines.push(e);
    return e;
  }

  /** Why the run ended unfinished, if it did. */
  get why(): string | undefined {
    return this.whyNone;
  }

  /**
   * The pool of `clusterId` gave its cluster up and its last job ended (`why`). Ends the run when no pool
   * still brings hosts and every machine of the file with hosts has left for good (`removed`).
   */
  poolExhausted(clusterId: ClusterId, why: string, pools: readonly HostPool[], removed: (host: HostId) => boolean): void {
    this.exhausted.set(clusterId, why);
    if (pools.some((p) => !this.exhausted.has(p.clusterId))) return;
    if (this.machines.some((e) => e.spec.hostIds.some((h) => !removed(h)))) return;
    if (this.whyNone !== undefined) return;
    const clusters = [...this.exhausted].map(([c, w]) => `cluster ${c} was given up: ${w}`);
    this.whyNone = `no host is left to run them: ${clusters.join('; ')}`;
    this.ended?.(this.whyNone);
  }
}
