// What a real run writes down as it goes: the run record (sub-tasks started and ended, grid events: hosts
// and clusters added and removed) and the journal (each state change on disk before it is acted on, a
// task's start written before it is launched and on disk soon after; see journal.ts), so that `--resume`
// knows what was verified and what was started. A journal the origin refuses to write
// ends the run through `failed` (an OriginWriteError: the origin's failure, blaming no host).
import type { HostInfo } from '../../../src/interfaces/information.js';
import type { FileId, WorkId } from '../../../src/model/application.js';
import type { ClusterId, GridEvent, HostId } from '../../../src/model/grid.js';
import type { RecordSink, ResourceRef, SubtaskKind } from '../../../src/record/events.js';
import type { Journal, JournalInput } from '../journal.js';
import type { WallClock } from '../wall-clock.js';

export class RunRecords {
  private nextSubtaskId = 1;

  constructor(
    private readonly clock: WallClock,
    private readonly record: RecordSink,
    private readonly journal: Journal | undefined,
    /** A journal write failed: the run stops with it (the error is rethrown to the waiting caller too). */
    private readonly failed: (err: unknown) => void,
  ) {}

  nowS(): number {
    return this.clock.nowS();
  }

  /** A sub-task (transfer or computation) starts; returns its id for subtaskEnded. */
  subtaskStarted(kind: SubtaskKind, resource: ResourceRef, extra: { work?: WorkId; file?: FileId; sizeBytes?: number }): number {
    const id = this.nextSubtaskId++;
    this.record({ type: 'start', t: this.clock.nowS(), id, kind, resource, ...extra });
    return id;
  }

  subtaskEnded(id: number, ok: boolean): void {
    this.record({ type: 'end', t: this.clock.nowS(), id, ok });
  }

  hostAdded(info: HostInfo): void {
    const leaves = info.leavesAtS !== undefined ? { leavesAtS: info.leavesAtS } : {};
    this.gridEvent({ kind: 'ADD_HOST', cluster: info.clusterId, host: info.id, behavior: 'real', offset: 0, arch: info.arch, ...leaves, timeS: this.clock.nowS() });
  }

  hostRemoved(id: HostId): void {
    this.gridEvent({ kind: 'REMOVE_HOST', host: id, timeS: this.clock.nowS() });
  }

  clusterAdded(id: ClusterId): void {
    this.gridEvent({ kind: 'ADD_CLUSTER', cluster: id, behavior: 'real', offset: 0, timeS: this.clock.nowS() });
  }

  clusterRemoved(id: ClusterId): void {
    this.gridEvent({ kind: 'REMOVE_CLUSTER', cluster: id, timeS: this.clock.nowS() });
  }

  private gridEvent(event: GridEvent): void {
    this.record({ type: 'grid', t: this.clock.nowS(), event });
  }

  /** Records `entry` in the journal (if any); resolves once it is on disk. A journal that cannot be written ends the run. */
  journaled(entry: JournalInput): Promise<void> {
    const journal = this.journal;
    if (!journal) return Promise.resolve();
    return journal.append(entry).catch((err: unknown) => {
      this.failed(err); // an OriginWriteError (disk full...) stops the run as the origin's failure
      throw err;
    });
  }

  /**
   * Records `entry` in the journal (if any); resolves once it is written to the file, before its fsync
   * (see Journal.appendWritten: a killed controller keeps it, an OS crash may not).
   */
  journalWritten(entry: JournalInput): Promise<void> {
    const journal = this.journal;
    if (!journal) return Promise.resolve();
    return journal.appendWritten(entry).catch((err: unknown) => {
      this.failed(err);
      throw err;
    });
  }

  /** Records `entry` without waiting for it: nothing done next depends on it being on disk. */
  journalNote(entry: JournalInput): void {
    void this.journaled(entry).catch(() => undefined);
  }
}
