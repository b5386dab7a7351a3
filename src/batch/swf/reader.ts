// Streams an SWF file, plain or gzip'd (byte-source.ts): reads it in chunks and parses one job line at a
// time straight from the bytes, so a trace of millions of jobs is never in memory. Malformed lines, and
// gzip data that is corrupt or cut short, throw InputError at file:line:column (lines of the decompressed
// text), naming the field.
import { InputError, unreadableFile } from '../../util/diagnostics.js';
import { MAX_EXACT, MAX_EXACT_TEXT } from '../../util/exact-limit.js';
import { F, SWF_FIELD_COUNT, SWF_FIELDS, type SwfHeader } from './fields.js';
import { HeaderBuilder } from './header.js';
import { DecompressionError, openByteSource, type ByteSource } from './byte-source.js';

const CHUNK_BYTES = 1 << 20;
const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const SEMICOLON = 59;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

export class SwfReader {
  private readonly headerBuilder = new HeaderBuilder();
  /** The `;` lines before the first job (complete once readHeader() or next() has been called). */
  readonly header: SwfHeader = this.headerBuilder.header;
  /** The current job's 18 fields, valid after next() returned true. */
  readonly fields = new Float64Array(SWF_FIELD_COUNT);
  /** The current job's line number (1-based). */
  line = 0;

  private readonly source: ByteSource;
  private buffer: Buffer;
  private jobSeen = false;
  private start = 0;
  private end = 0;
  private eof = false;
  private pending = false;
  private closed = false;

  constructor(readonly path: string) {
    try {
      this.source = openByteSource(path);
    } catch (err) {
      throw unreadableFile(path, 'the workload', err);
    }
    this.buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(4096, this.source.sizeHintBytes + 1)));
  }

  /** Reads comment lines up to the first job, so `header` is complete; the job stays for next(). */
  readHeader(): SwfHeader {
    if (!this.pending && !this.closed) this.pending = this.advance();
    return this.header;
  }

  /** Moves to the next job line; false at the end of the file (the file is then closed). */
  next(): boolean {
    if (this.pending) {
      this.pending = false;
      return true;
    }
    return this.advance();
  }

  /** True when the file is gzip'd (told by its first two bytes). */
  get gzip(): boolean {
    return this.source.gzip;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.source.close();
  }

  private advance(): boolean {
    for (;;) {
      const lineEnd = this.findLineEnd();
      if (lineEnd < 0) {
        this.close();
        return false;
      }
      this.line++;
      const lineStart = this.start;
      this.start = lineEnd + 1;
      if (this.parseLine(lineStart, lineEnd)) return true;
    }
  }

  /** The index of the current line's end (its newline, or the end of the data at EOF); -1 when no line is left. */
  private findLineEnd(): number {
    for (;;) {
      const nl = this.buffer.indexOf(NL, this.start);
      if (nl >= 0 && nl < this.end) return nl;
      if (this.eof) return this.start < this.end ? this.end : -1;
      this.fill();
    }
  }

  private fill(): void {
    const kept = this.end - this.start;
    if (kept > 0 && this.start > 0) this.buffer.copy(this.buffer, 0, this.start, this.end);
    if (kept === this.buffer.length) {
      const grown = Buffer.allocUnsafe(this.buffer.length * 2);
      this.buffer.copy(grown, 0, 0, kept);
      this.buffer = grown;
    }
    this.start = 0;
    this.end = kept;
    let n: number;
    try {
      n = this.source.read(this.buffer, this.end, this.buffer.length - this.end);
    } catch (err) {
      if (!(err instanceof DecompressionError)) throw err;
      // The data so far ends the line being read: point at where it stops.
      this.line++;
      this.fail(this.start, this.end, err.message, 'a complete gzip file', err.truncated ? 'the file looks cut short (an interrupted download?): fetch it again; `gzip -t FILE` checks it' : 'the file is damaged: fetch it again; `gzip -t FILE` checks it');
    }
    if (n === 0) this.eof = true;
    this.end += n;
  }

  /** Parses one line; true if it held a job (comments and blank lines give false). */
  private parseLine(from: number, to: number): boolean {
    const b = this.buffer;
    let i = from;
    while (i < to && (b[i] === SPACE || b[i] === TAB || b[i] === CR)) i++;
    if (i === to) return false;
    if (b[i] === SEMICOLON) {
      if (!this.jobSeen) this.headerBuilder.comment(b.toString('utf8', i + 1, to));
      return false;
    }
    this.jobSeen = true;
    let field = 0;
    while (i < to) {
      const fieldStart = i;
      while (i < to && b[i] !== SPACE && b[i] !== TAB && b[i] !== CR) i++;
      if (field < SWF_FIELD_COUNT) this.fields[field] = this.parseNumber(fieldStart, i, from, field);
      field++;
      while (i < to && (b[i] === SPACE || b[i] === TAB || b[i] === CR)) i++;
    }
    if (field !== SWF_FIELD_COUNT) {
      const atEof = to === this.end && this.eof;
      this.fail(from, from, `a job line has ${field} field${field === 1 ? '' : 's'}`, `${SWF_FIELD_COUNT} whitespace-separated numbers`, atEof && field < SWF_FIELD_COUNT ? 'the last line looks truncated: complete it or remove it' : 'give every job all 18 SWF fields, -1 where a value is unknown');
    }
    return true;
  }

  private parseNumber(from: number, to: number, lineStart: number, field: number): number {
    const b = this.buffer;
    let i = from;
    const negative = b[i] === MINUS;
    if (negative) i++;
    let value = 0;
    let digits = 0;
    while (i < to && b[i]! >= ZERO && b[i]! <= NINE) {
      value = value * 10 + (b[i]! - ZERO);
      digits++;
      i++;
    }
    if (i < to && b[i] === DOT) {
      i++;
      let scale = 0.1;
      while (i < to && b[i]! >= ZERO && b[i]! <= NINE) {
        value += (b[i]! - ZERO) * scale;
        scale /= 10;
        digits++;
        i++;
      }
    }
    const name = SWF_FIELDS[field]!;
    if (i !== to || digits === 0) this.fail(lineStart, from, `field ${field + 1} (${name}) is not a number`, 'a number, or -1 if unknown', 'SWF fields are plain decimal numbers separated by spaces', to);
    if (value > MAX_EXACT) this.fail(lineStart, from, `field ${field + 1} (${name}) is too large`, `a value up to ${MAX_EXACT_TEXT}, or -1 if unknown`, 'a double holds whole numbers exactly only up to 2^53; check the field and its unit', to);
    if (negative && value !== 1 && value !== 0) this.fail(lineStart, from, `field ${field + 1} (${name}) is negative`, 'a value ≥ 0, or -1 if unknown', 'only -1 (unknown) may be negative', to);
    return negative ? -value : value;
  }

  private fail(lineStart: number, at: number, message: string, expected: string, hint: string, foundEnd?: number): never {
    const found = foundEnd === undefined ? undefined : printable(this.buffer.subarray(at, Math.min(foundEnd, at + 24)));
    // Columns count characters, not bytes (a line may hold UTF-8 garbage).
    const column = this.buffer.toString('utf8', lineStart, at).length + 1;
    this.close();
    throw new InputError([{ severity: 'error', pos: { file: this.path, line: this.line, column }, message, expected, hint, ...(found === undefined ? {} : { found }) }]);
  }
}

function printable(bytes: Uint8Array): string {
  let s = '';
  for (const c of bytes) s += c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  return `'${s}'`;
}

export { F };
