// A real run's task logs: the end of each task's standard output and standard error, kept at the origin
// as <dir>/<work>.out and <dir>/<work>.err (the last attempt's; a stream that wrote nothing leaves no
// file), so that what a task printed is not lost. Off the hot path: the logs of one turn of the event loop
// are written together, asynchronously (on libuv's thread pool), never with a synchronous call per task.
// A log the origin's file system refuses (full, read-only...) is the origin's failure: told to
// onOriginFailure (the run ends); any other failed write is only reported at the end.
import { readdirSync, unlink, writeFile } from 'node:fs';
import { join } from 'node:path';
import type { WorkId } from '../../src/model/application.js';
import type { TaskExit } from '../transport/endpoint.js';
import { asOriginFailure, mkdirAtOrigin, type OriginWriteError } from './origin-failure.js';

/** How much of each stream a task log keeps: its last 64 KiB. */
export const TASK_LOG_BYTES = 64 * 1024;

/** One stream's log: the bytes kept, after a line saying how much was left out when the task wrote more. */
export function logText(kept: Buffer, totalBytes: number): Buffer {
  if (totalBytes <= kept.length) return kept;
  const note = `[gridsweep: the first ${totalBytes - kept.length} of ${totalBytes} bytes were left out; the last ${kept.length} follow]\n`;
  return Buffer.concat([Buffer.from(note, 'utf8'), kept]);
}

export class TaskLogs {
  /** Logs waiting for the next write, per Work (a later attempt's replace an earlier one's). */
  private waiting = new Map<WorkId, { readonly out: Buffer; readonly err: Buffer }>();
  /** File names that may exist in the directory: there at the start, or written since. */
  private readonly present: Set<string>;
  private writing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  /** The first write that failed, if any (the run goes on without it). */
  problem: string | undefined;
  /** Told when the origin refuses a log (disk full...). */
  onOriginFailure: ((err: OriginWriteError) => void) | undefined;

  private constructor(readonly dir: string) {
    // Once per run, before any task: the directory, and which logs an earlier run left in it.
    mkdirAtOrigin('a task log', dir);
    this.present = new Set(readdirSync(dir));
  }

  static open(dir: string): TaskLogs {
    return new TaskLogs(dir);
  }

  /** The log files of Work `work`. */
  pathsOf(work: WorkId): { out: string; err: string } {
    return { out: join(this.dir, `${work}.out`), err: join(this.dir, `${work}.err`) };
  }

  /** Keeps what an attempt of `work` printed (endpoints without TaskExit.kept: the stderr tail only). */
  write(work: WorkId, exit: TaskExit): void {
    const k = exit.kept;
    const out = k ? logText(k.stdout, k.stdoutBytes) : Buffer.alloc(0);
    const err = k ? logText(k.stderr, k.stderrBytes) : Buffer.from(exit.stderrTail, 'utf8');
    this.waiting.set(work, { out, err });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    this.writing = this.writing.then(() =>
      Promise.all(
        [...batch].flatMap(([work, logs]) => {
          const paths = this.pathsOf(work);
          return [this.put(paths.out, `${work}.out`, logs.out), this.put(paths.err, `${work}.err`, logs.err)];
        }),
      ).then(() => undefined),
    );
  }

  /** Writes a log, or removes an earlier one when the stream was empty this time. */
  private async put(path: string, name: string, data: Buffer): Promise<void> {
    try {
      // The callback forms: lighter than fs/promises' (no FileHandle per file).
      if (data.length > 0) {
        this.present.add(name);
        await new Promise<void>((resolve, reject) => writeFile(path, data, (err) => (err ? reject(err) : resolve())));
      } else if (this.present.delete(name)) {
        await new Promise<void>((resolve, reject) => unlink(path, (err) => (err && err.code !== 'ENOENT' ? reject(err) : resolve())));
      }
    } catch (err) {
      this.problem ??= `task logs in ${this.dir} could not be written: ${(err as Error).message}`;
      const origin = asOriginFailure(err, 'a task log', path);
      if (origin) this.onOriginFailure?.(origin);
    }
  }

  /** Writes what is still waiting. */
  async close(): Promise<void> {
    if (this.flushScheduled) this.flush();
    await this.writing;
  }
}
