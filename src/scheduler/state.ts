// What the scheduler knows about the run (seed 001 §7.2): each Work's state, each host's FIFO of Works,
// each cluster's ("Disk") link FIFO of Files to move and the files it holds.
import type { FileId, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { HostInfo } from '../interfaces/information.js';

/**
 * todo: to be planned · queued: in a host FIFO · running: computing · computed: outputs wait in the
 * cluster's storage · retrieving: outputs on the link · done: outputs at the origin · failed: given up.
 */
export type WorkStatus = 'todo' | 'queued' | 'running' | 'computed' | 'retrieving' | 'done' | 'failed';

export interface WorkState {
  readonly spec: WorkSpec;
  status: WorkStatus;
  /** The host it is queued on, runs on, or was computed on (null when todo). */
  host: HostId | null;
  /** Computations started so far (more than one means re-execution after a failure). */
  executions: number;
  /** Failures of the program itself (WorkFailure 'exit'). */
  exitFailures: number;
}

export interface RunningSubtask {
  readonly startS: number;
  /** Estimated when it started (seed 001 §5.2.1: trusted until overdue). */
  readonly estEndS: number;
  /**
   * What it has to do, as estimated when it started: dedicated CPU seconds for a computation, bytes for a
   * transfer (the 'progress' running estimate compares it with the measured progress).
   */
  readonly estAmount?: number;
}

export interface RunningCompute extends RunningSubtask {
  readonly workId: WorkId;
}

export interface HostState {
  info: HostInfo;
  up: boolean;
  fifo: WorkId[];
  running: RunningCompute | null;
  /** The last plan gave this host nothing: an empty FIFO here does not ask for another plan. */
  starved: boolean;
  /** Joined while re-planning on additions is off: waits for the next scheduling event, asks for no plan. */
  awaitingPlan: boolean;
}

/** A link FIFO entry. `planS`: when the plan that queued it expected it to start (orders the FIFO). */
export type LinkItem =
  | { readonly kind: 'input'; readonly fileId: FileId; readonly planS: number }
  | { readonly kind: 'output'; readonly workId: WorkId; readonly planS: number };

export interface RunningTransfer extends RunningSubtask {
  readonly item: LinkItem;
}

/** A cluster link's FIFO, with quick membership tests (no file or output is ever queued twice). */
export class LinkQueue {
  private items: LinkItem[] = [];
  private readonly inputs = new Set<FileId>();
  private readonly outputs = new Set<WorkId>();

  get length(): number {
    return this.items.length;
  }
  at(k: number): LinkItem {
    return this.items[k]!;
  }
  list(): readonly LinkItem[] {
    return this.items;
  }
  hasInput(fileId: FileId): boolean {
    return this.inputs.has(fileId);
  }
  hasOutput(workId: WorkId): boolean {
    return this.outputs.has(workId);
  }
  /** Appends unless the same file or output is already queued; returns whether it was added. */
  push(item: LinkItem): boolean {
    if (item.kind === 'input' ? this.inputs.has(item.fileId) : this.outputs.has(item.workId)) return false;
    if (item.kind === 'input') this.inputs.add(item.fileId);
    else this.outputs.add(item.workId);
    this.items.push(item);
    return true;
  }
  removeAt(k: number): LinkItem {
    const [item] = this.items.splice(k, 1);
    if (item!.kind === 'input') this.inputs.delete(item!.fileId);
    else this.outputs.delete(item!.workId);
    return item!;
  }
  removeOutput(workId: WorkId): void {
    if (!this.outputs.has(workId)) return;
    this.removeAt(this.items.findIndex((i) => i.kind === 'output' && i.workId === workId));
  }
  /** Orders by planned start, keeping the current order between equal times. */
  sortByPlan(): void {
    this.items = this.items.map((item, k) => ({ item, k })).sort((a, b) => a.item.planS - b.item.planS || a.k - b.k).map((x) => x.item);
  }
  clear(): void {
    this.items = [];
    this.inputs.clear();
    this.outputs.clear();
  }
}

export interface ClusterState {
  readonly id: ClusterId;
  up: boolean;
  queue: LinkQueue;
  busy: RunningTransfer | null;
  /** Files the scheduler knows are in the cluster's storage (own transfers, plus info.storedFiles at plans). */
  stored: Set<FileId>;
}
