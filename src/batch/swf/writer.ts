// Writes SWF: the header comments, then one 18-field line per job. Streams through a buffer to a temporary
// file that close() renames into place, so a reader never sees half a workload and memory stays flat.
import { moveIntoPlace, temporaryName } from '../../util/atomic-write.js';
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { SWF_FIELD_COUNT } from './fields.js';

const FLUSH_CHARS = 1 << 16;

export class SwfWriter {
  private readonly tmp: string;
  private readonly fd: number;
  private text = '';
  private open = true;
  jobsWritten = 0;

  /** `header` lines are written as `; Key: value`. */
  constructor(readonly path: string, header: ReadonlyArray<readonly [string, string | number]>) {
    this.tmp = temporaryName(path);
    this.fd = openSync(this.tmp, 'w');
    for (const [key, value] of header) this.text += `; ${key}: ${value}\n`;
  }

  /** One job: exactly 18 numbers, -1 where unknown. */
  write(fields: ArrayLike<number>): void {
    if (fields.length !== SWF_FIELD_COUNT) throw new Error(`SwfWriter: a job has ${fields.length} fields, not ${SWF_FIELD_COUNT}`);
    let line = '';
    for (let i = 0; i < SWF_FIELD_COUNT; i++) line += (i === 0 ? '' : ' ') + formatField(fields[i]!);
    this.text += line + '\n';
    this.jobsWritten++;
    if (this.text.length >= FLUSH_CHARS) this.flush();
  }

  /** Finishes the file and moves it into place. */
  close(): void {
    if (!this.open) return;
    this.flush();
    closeSync(this.fd);
    this.open = false;
    moveIntoPlace(this.tmp, this.path);
  }

  /** Gives up: removes the temporary file, leaves nothing behind. */
  abort(): void {
    if (!this.open) return;
    closeSync(this.fd);
    this.open = false;
    unlinkSync(this.tmp);
  }

  private flush(): void {
    writeSync(this.fd, this.text);
    this.text = '';
  }
}

/** Integers as integers; other values with at most 2 decimals (SWF's CPU-time and memory fields). */
function formatField(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}
