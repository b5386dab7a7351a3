// The meaningful lines of a description file: blank lines and lines whose first non-blank character is
// '#' are skipped (Berman et al. 1999, §7.2.1–7.2.2). Line numbers start at 1; a trailing '\r' (CRLF files) is dropped.
// Lines are visited as [start, end) offsets into the text, so a large file is never copied line by line.

export class LineCursor {
  /** Number of the current line. */
  line = 0;
  /** The current line is text[start, end). */
  start = 0;
  end = 0;
  private nextStart = 0;

  constructor(readonly text: string) {}

  /** Moves to the next meaningful line; false at the end of the text. */
  advance(): boolean {
    const text = this.text;
    const n = text.length;
    while (this.nextStart <= n) {
      const start = this.nextStart;
      let end = text.indexOf('\n', start);
      if (end === -1) end = n;
      this.nextStart = end + 1;
      this.line++;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      if (!isSkipped(text, start, end)) {
        this.start = start;
        this.end = end;
        return true;
      }
    }
    return false;
  }

  get lineText(): string {
    return this.text.slice(this.start, this.end);
  }
}

/** Visits one meaningful line, text[start, end); returns false to stop. */
export type LineVisitor = (text: string, start: number, end: number, line: number) => boolean;

/**
 * The meaningful lines of a text given in consecutive pieces (a file read a piece at a time), numbered and
 * skipped as LineCursor does over the whole text; a line split between pieces is visited once whole. Only
 * the pieces around the current line are held, never the whole text.
 */
export function visitLines(pieces: Iterable<string>, visit: LineVisitor): void {
  let line = 0;
  /** The unfinished line: pieces with no newline since the last one. */
  const head: string[] = [];
  /** Visits text[start, end) as the next line (end: its newline, or the end of the text). */
  const next = (text: string, start: number, end: number): boolean => {
    line++;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    return isSkipped(text, start, end) || visit(text, start, end, line);
  };
  for (const piece of pieces) {
    let start = 0;
    if (head.length > 0) {
      const nl = piece.indexOf('\n');
      if (nl === -1) {
        head.push(piece);
        continue;
      }
      // The line split between pieces is made whole on its own, so that the piece itself, not a concatenation
      // of it (which V8 reads through one more indirection per character), holds the lines after it.
      const split = head.join('') + piece.slice(0, nl);
      head.length = 0;
      if (!next(split, 0, split.length)) return;
      start = nl + 1;
    }
    for (;;) {
      const nl = piece.indexOf('\n', start);
      if (nl === -1) break;
      if (!next(piece, start, nl)) return;
      start = nl + 1;
    }
    if (start < piece.length) head.push(start === 0 ? piece : piece.slice(start));
  }
  // The last line, which no newline ends (LineCursor visits it too; it is empty when the text ends with one).
  const text = head.join('');
  next(text, 0, text.length);
}

function isSkipped(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) continue;
    return c === 35; // '#'
  }
  return true;
}

/** The first meaningful line, or undefined for a file of only comments and blanks. */
export function firstContentLine(text: string): { line: number; text: string } | undefined {
  const cursor = new LineCursor(text);
  return cursor.advance() ? { line: cursor.line, text: cursor.lineText } : undefined;
}
