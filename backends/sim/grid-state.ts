// The simulated grid's mutable state: clusters (link + storage), hosts, and the activities running on them.
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { HostInfo, Sample } from '../../src/interfaces/information.js';
import type { SubtaskKind } from '../../src/record/events.js';
import type { Attachment } from './rate-series.js';
import { IdSet } from '../../src/scheduler/id-set.js';

/** One stretch of time during which a behaviour was attached to an up resource (for measurements). */
export interface HistoryEntry {
  readonly attachment: Attachment;
  /** Raw sample values as a measurement reports them (availability fraction, bytes/s). */
  readonly values: Float64Array;
  /** Latency samples in ms (links only). */
  readonly latencyMs?: Float64Array;
  /** When this stretch ended (the resource went down or changed behaviour); Infinity while current. */
  endS: number;
}

/** The information service's last answer for one series, reused until a new sample is due or the history changes. */
export interface CachedSamples {
  readonly maxSamples: number;
  readonly historyLength: number;
  readonly lastEndS: number;
  /** Time of the next sample after the newest one returned (Infinity once the history is closed). */
  readonly validUntilS: number;
  readonly samples: readonly Sample[];
}

/** A transfer on a link or a computation on a host, from start to completion (or abort). */
export class Activity {
  /** Remaining work-seconds (compute) or bytes (transfers) as of `sinceS`. */
  remaining: number;
  /** Time from which `remaining` is counted; never before `flowStartS`. */
  sinceS: number;
  /** Time the completion event is due (Infinity: no progress is possible under the current behaviour). */
  endS = Infinity;
  /** Sequence number of the live completion event in the queue, -1 when none. */
  eventSeq = -1;
  over = false;

  constructor(
    readonly kind: SubtaskKind,
    readonly recordId: number,
    readonly cluster: SimCluster,
    /** The host computing (compute), or the host whose outputs are sent (output); null for inputs. */
    readonly host: SimHost | null,
    /** File sent (input) or Work computed / retrieved (compute, output). */
    readonly subject: number,
    readonly startS: number,
    /** When work starts to flow: after the latency for a transfer, at once for a computation. */
    readonly flowStartS: number,
    amount: number,
    /** Bytes moved by a transfer (0 for a computation). */
    readonly sizeBytes: number,
  ) {
    this.remaining = amount;
    this.sinceS = flowStartS;
  }
}

export class SimCluster {
  up = false;
  linkAttachment: Attachment | undefined;
  /** Latency in seconds of each sample of the link behaviour in force. */
  linkLatencyS: Float64Array = new Float64Array(0);
  linkHistory: HistoryEntry[] = [];
  /** The information service's last answers about linkHistory: bandwidth, latency (sim-information.ts). */
  readonly measured: (CachedSamples | undefined)[] = [undefined, undefined];
  /**
   * Files stored here (inputs sent, outputs computed), in the order stored (port (3) hands it out as a
   * ReadonlySet); kept while the cluster is down.
   */
  readonly storage: IdSet;
  /** Works whose computation ended OK here (their outputs are in `storage`); visited in no particular order. */
  readonly computedWorks: IdSet;
  readonly hosts: SimHost[] = [];
  linkActivity: Activity | null = null;
  busyS = 0;
  bytesIn = 0;
  bytesOut = 0;
  transfers = 0;

  constructor(
    readonly id: ClusterId,
    readonly index: number,
    /** The application's file and Work counts (the sets' id ranges). */
    fileCount: number,
    workCount: number,
  ) {
    this.storage = new IdSet(fileCount, true);
    this.computedWorks = new IdSet(workCount, false);
  }
}

export class SimHost {
  up = false;
  info: HostInfo;
  attachment: Attachment | undefined;
  history: HistoryEntry[] = [];
  /** The information service's last answer about history: availability (sim-information.ts). */
  readonly measured: (CachedSamples | undefined)[] = [undefined];
  activity: Activity | null = null;
  busyS = 0;
  /** Computations that ended OK here. */
  computesDone = 0;

  constructor(
    readonly id: HostId,
    public cluster: SimCluster,
    public arch: number,
    readonly index: number,
  ) {
    this.info = { id, clusterId: cluster.id, arch };
  }
}
