// The run record's writers, beside the record's types: JSON Lines, one event a line. A simulation's record
// is written under a temporary name and renamed into place once complete (a reader never sees half of
// one); a real run's is written as the run goes, line by line, so that a crashed run leaves what happened.
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { moveIntoPlace, temporaryName } from '../util/atomic-write.js';
import type { RecordSink, RunRecordEvent } from './events.js';

/** Writes the run record as JSON Lines under a temporary name; `commit` renames it into place. */
export class JsonlRecordFile {
  private readonly tmp: string;
  private readonly fd: number;
  private buffer: string[] = [];
  private bufferedChars = 0;

  constructor(readonly path: string) {
    this.tmp = temporaryName(path);
    this.fd = openSync(this.tmp, 'w');
  }

  readonly sink: RecordSink = (event: RunRecordEvent) => {
    const line = JSON.stringify(event);
    this.buffer.push(line);
    this.bufferedChars += line.length + 1;
    if (this.bufferedChars > 1 << 20) this.flush();
  };

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.bufferedChars = 0;
  }

  commit(): void {
    this.flush();
    closeSync(this.fd);
    moveIntoPlace(this.tmp, this.path);
  }

  discard(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      // never created
    }
  }
}

/** A whole record written at once: complete under its name, or not there at all. */
export function writeRecordFile(path: string, events: readonly RunRecordEvent[]): void {
  const file = new JsonlRecordFile(path);
  try {
    for (const e of events) file.sink(e);
    file.commit();
  } catch (err) {
    file.discard();
    throw err;
  }
}

/**
 * The record of a run written as it goes: one line per event, straight to `path`. Every file operation
 * runs inside `writing` (the caller's: a real run turns a write its disk refuses into its origin failure).
 */
export function liveRecordFile(path: string, writing: <T>(write: () => T) => T = (write) => write()): { sink: RecordSink; close: () => void } {
  const fd = writing(() => {
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, 'w');
  });
  return { sink: (e) => writing(() => void writeSync(fd, `${JSON.stringify(e)}\n`)), close: () => closeSync(fd) };
}
