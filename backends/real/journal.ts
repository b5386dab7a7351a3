// The journal of a real run: JSON Lines, so that after a crash `--resume` knows every task whose outputs
// were verified and every attempt it may have to collect. Durability, line by line:
// - 'run', 'verified', 'done' and 'failed' lines are on disk (fsync'd) before the state change they record
//   is acted on: a verified result is never reported done before its line is on disk.
// - A task's 'started' line is written (write(2) returned) before the task is launched, and fsync'd in a
//   group commit soon after: with the next durable line's fsync, or within WRITTEN_SYNC_BOUND_MS. A
//   controller killed, even by SIGKILL, keeps it (the page cache outlives the process); only an operating
//   system crash can lose it, and then the resumed run does not know that attempt and runs the task again.
//   Nothing verified can be lost that way: a line is fsync'd only with every line written before it.
// A journal whose disk filled up mid-line ends in a torn line: reading ignores it, and opening to append
// cuts it off (else the next run's first line would follow it on the same line and make it unreadable).
import { closeSync, existsSync, fstatSync, fsync, ftruncateSync, openSync, readFileSync, readSync, write } from 'node:fs';
import { resolve } from 'node:path';
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { WorkId } from '../../src/model/application.js';
import { InputError } from '../../src/util/diagnostics.js';
import type { SweepTask } from '../../src/sweep/expand.js';
import { fileFactsIfPresent, sameFacts, type FileFacts } from '../transport/file-facts.js';
import { asOriginFailure, writingAtOrigin } from './origin-failure.js';

export interface OutputFacts extends FileFacts {
  readonly path: string;
}

export type JournalEntry =
  /** A run (or a resumed one) starts; `runId` names its directory in the clusters' storage. */
  | { readonly type: 'run'; readonly at: string; readonly sweep: string; readonly tasks: number; readonly runId?: string }
  | { readonly type: 'started'; readonly at: string; readonly work: WorkId; readonly host: HostId; readonly cluster?: ClusterId; readonly attempt: number }
  /** The computation exited 0; `outputs` are the size and hash the host reported. */
  | { readonly type: 'done'; readonly at: string; readonly work: WorkId; readonly host: HostId; readonly outputs: readonly OutputFacts[] }
  /** The outputs are at the origin and match what the host reported. */
  | { readonly type: 'verified'; readonly at: string; readonly work: WorkId; readonly host: HostId; readonly argv: readonly string[]; readonly outputs: readonly OutputFacts[] }
  | { readonly type: 'failed'; readonly at: string; readonly work: WorkId; readonly host: HostId; readonly reason: string; readonly final: boolean };

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;
export type JournalInput = WithoutAt<JournalEntry>;

/** How long a line appended with appendWritten may stay written but not fsync'd when no durable line follows. */
export const WRITTEN_SYNC_BOUND_MS = 200;

interface Waiting {
  readonly line: string;
  /** True: resolve once fsync'd (append); false: once written (appendWritten). */
  readonly durable: boolean;
  readonly done: () => void;
  readonly failed: (err: Error) => void;
}

/**
 * Group commit. Lines appended during one turn of the event loop are written together, one write(2) at a
 * time and in the order appended; an fsync (on libuv's thread pool, so the run goes on meanwhile) makes
 * every line written before it began durable, and a batch written while one runs waits for the next.
 * `append` resolves once its line is fsync'd; `appendWritten` once its line is written, the fsync
 * following with the next durable line's or within WRITTEN_SYNC_BOUND_MS.
 */
export class Journal {
  private queued: Waiting[] = [];
  private flushScheduled = false;
  /** The write(2) in progress, if any: the next batch is written after it. */
  private writing: Promise<void> | undefined;
  /** Lines written so far (write(2) returned), and lines made durable by a finished fsync. */
  private writtenLines = 0;
  private syncedLines = 0;
  /** Durable appends written and waiting for an fsync to cover them (`upTo`: lines written with them). */
  private unsynced: { readonly upTo: number; readonly done: () => void; readonly failed: (err: Error) => void }[] = [];
  private syncing: Promise<void> | undefined;
  private syncLoopRunning = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private error: Error | undefined;
  /** Number of fsyncs so far. */
  syncs = 0;

  private constructor(
    readonly path: string,
    private fd: number | undefined,
  ) {}

  /** Opens `path` to append (created if absent), a torn last line cut off first. */
  static open(path: string): Journal {
    return writingAtOrigin('the journal', path, () => {
      // 'a+': appends, and reads (to find a torn tail)
      const fd = openSync(path, 'a+');
      try {
        cutTornTail(fd);
      } catch (err) {
        closeSync(fd);
        throw err;
      }
      return new Journal(path, fd);
    });
  }

  /** Appends one entry; resolves once it is on disk (rejects if the journal cannot be written). */
  append(entry: JournalInput): Promise<void> {
    return this.enqueue(entry, true);
  }

  /**
   * Appends one entry; resolves once it is written to the file (write(2) returned: a controller killed
   * even by SIGKILL keeps it, the page cache outliving the process), before it is fsync'd. Only an
   * operating system crash can lose it. For lines whose loss costs repeated work, never a result: a
   * task's 'started'.
   */
  appendWritten(entry: JournalInput): Promise<void> {
    return this.enqueue(entry, false);
  }

  private enqueue(entry: JournalInput, durable: boolean): Promise<void> {
    if (this.fd === undefined) return Promise.reject(new Error(`journal ${this.path} is closed`));
    if (this.error) return Promise.reject(this.error);
    const line = `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`;
    return new Promise((done, failed) => {
      this.queued.push({ line, durable, done, failed });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Writes what is queued (after the write in progress), then asks for the fsync its durable lines need. */
  private async flush(): Promise<void> {
    while (this.writing) await this.writing;
    this.flushScheduled = false;
    const batch = this.queued;
    this.queued = [];
    const fd = this.fd;
    if (fd === undefined) for (const b of batch) b.failed(new Error(`journal ${this.path} is closed`));
    if (batch.length === 0 || fd === undefined) return;
    if (this.error) {
      for (const b of batch) b.failed(this.error);
      return;
    }
    this.writing = (async () => {
      try {
        await writeAll(fd, batch.map((b) => b.line).join(''));
      } catch (err) {
        this.fail(err);
        for (const b of batch) b.failed(this.error!);
        return;
      }
      this.writtenLines += batch.length;
      for (const b of batch) {
        if (b.durable) this.unsynced.push({ upTo: this.writtenLines, done: b.done, failed: b.failed });
        else b.done();
      }
      if (this.unsynced.length > 0) void this.sync();
      else if (this.syncTimer === undefined && !this.syncLoopRunning) {
        this.syncTimer = setTimeout(() => void this.sync(), WRITTEN_SYNC_BOUND_MS);
        this.syncTimer.unref();
      }
    })();
    await this.writing;
    this.writing = undefined;
  }

  /** fsyncs until every line written so far is durable (one fsync at a time; each covers all lines written before it began). */
  private sync(): Promise<void> {
    if (this.syncTimer !== undefined) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    // A loop running sees the lines written meanwhile: it is cleared in the same step as its last check.
    if (this.syncLoopRunning) return this.syncing!;
    const fd = this.fd;
    if (fd === undefined) return Promise.resolve();
    this.syncLoopRunning = true;
    this.syncing = (async () => {
      try {
        while (this.syncedLines < this.writtenLines && !this.error) {
          const upTo = this.writtenLines;
          try {
            await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
          } catch (err) {
            this.fail(err);
            break;
          }
          this.syncs++;
          this.syncedLines = upTo;
          const covered = this.unsynced.filter((u) => u.upTo <= upTo);
          this.unsynced = this.unsynced.filter((u) => u.upTo > upTo);
          for (const u of covered) u.done();
        }
      } finally {
        this.syncLoopRunning = false;
      }
      if (this.error) for (const u of this.unsynced.splice(0)) u.failed(this.error);
    })();
    return this.syncing;
  }

  private fail(err: unknown): void {
    // The origin refusing the write (disk full...) is told apart: the run ends, the grid is not blamed.
    this.error ??= asOriginFailure(err, 'the journal', this.path) ?? new Error(`journal ${this.path} cannot be written: ${(err as Error).message}`);
  }

  /** Writes and syncs what is still waiting, then closes the file. */
  async close(): Promise<void> {
    await this.flush();
    while (this.writing) await this.writing;
    await this.sync();
    if (this.syncTimer !== undefined) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Truncates the file after its last newline when it does not end with one (a line torn by a crash or a full disk). */
function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  let first = true;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    if (first && chunk[n - 1] === 0x0a) return;
    first = false;
    const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) {
      ftruncateSync(fd, start + nl + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

function writeAll(fd: number, text: string): Promise<void> {
  const data = Buffer.from(text, 'utf8');
  return new Promise((resolve, reject) => {
    const from = (offset: number): void =>
      write(fd, data, offset, data.length - offset, null, (err, written) => {
        if (err) reject(err);
        else if (offset + written < data.length) from(offset + written);
        else resolve();
      });
    from(0);
  });
}

/** Reads a journal. A torn last line (the controller died while writing it) is ignored; any other bad line is an error. */
export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const entries: JournalEntry[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const e = JSON.parse(line) as JournalEntry;
      if (typeof e !== 'object' || e === null || typeof e.type !== 'string') throw new Error('not a journal entry');
      entries.push(e);
    } catch (err) {
      const isLast = lines.slice(i + 1).every((l) => l.trim() === '');
      if (isLast && !text.endsWith('\n')) return;
      throw new InputError([
        {
          severity: 'error',
          pos: { file: path, line: i + 1, column: 1 },
          message: `unreadable journal line: ${(err as Error).message}`,
          hint: 'remove the line (the tasks it names will be redone) or start without --resume',
        },
      ]);
    }
  });
  return entries;
}

/**
 * The tasks a resumed run can skip: the journal says their outputs were verified, the task is the same
 * (argv and output paths), and every output at the origin still has the recorded size and SHA-256.
 */
export async function verifiedWorks(entries: readonly JournalEntry[], tasks: readonly SweepTask[], originDir: string): Promise<Set<WorkId>> {
  const lastVerified = new Map<WorkId, Extract<JournalEntry, { type: 'verified' }>>();
  for (const e of entries) if (e.type === 'verified') lastVerified.set(e.work, e);
  const skip = new Set<WorkId>();
  for (const [work, e] of lastVerified) {
    const task = tasks[work];
    if (!task) continue;
    if (JSON.stringify(task.argv) !== JSON.stringify(e.argv)) continue;
    if (JSON.stringify(task.outputs.map((o) => o.path)) !== JSON.stringify(e.outputs.map((o) => o.path))) continue;
    let ok = true;
    for (const o of e.outputs) {
      const facts = await fileFactsIfPresent(resolve(originDir, o.path));
      if (!facts || !sameFacts(facts, o)) {
        ok = false;
        break;
      }
    }
    if (ok) skip.add(work);
  }
  return skip;
}

/** A task attempt the journal saw start and not end: it may have finished while no controller was running. */
export interface UnfinishedAttempt {
  readonly work: WorkId;
  readonly host: HostId;
  /** Its cluster, whose storage holds its working directory (older journals do not say). */
  readonly cluster?: ClusterId;
  readonly attempt: number;
  /** The run it started in (its directory in the cluster's storage). */
  readonly runId: string;
}

/**
 * The last attempt of each Work that is not in `skip` and whose last journal entry is its 'started' (or
 * a 'done' after it: computed, its outputs not yet back), with the run it started in.
 */
export function unfinishedAttempts(entries: readonly JournalEntry[], skip: ReadonlySet<WorkId>): UnfinishedAttempt[] {
  let runId: string | undefined;
  const last = new Map<WorkId, UnfinishedAttempt | undefined>();
  for (const e of entries) {
    if (e.type === 'run') runId = e.runId;
    else if (e.type === 'started') last.set(e.work, runId !== undefined ? { work: e.work, host: e.host, ...(e.cluster !== undefined ? { cluster: e.cluster } : {}), attempt: e.attempt, runId } : undefined);
    else if (e.type === 'failed' || e.type === 'verified') last.set(e.work, undefined);
  }
  return [...last.values()].filter((a): a is UnfinishedAttempt => a !== undefined && !skip.has(a.work));
}
