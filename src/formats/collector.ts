// Gathers the diagnostics of one parse, so a file reports many problems at once (up to a cap).
import type { SourcePos } from '../model/grid.js';
import { InputError, type Diagnostic } from '../util/diagnostics.js';
import type { LineTokens } from './line-lexer.js';

/** Errors kept per parse; past this, one closing note says how many more there were. */
export const MAX_ERRORS = 50;

export interface Problem {
  readonly message: string;
  readonly found?: string;
  readonly expected?: string;
  readonly hint?: string;
}

export class Collector {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  private dropped = 0;

  constructor(readonly file: string) {}

  pos(line: number, column: number): SourcePos {
    return { file: this.file, line, column };
  }

  /** The position of token i of a line. */
  at(line: number, tokens: LineTokens, i: number): SourcePos {
    return { file: this.file, line, column: tokens.col(i) };
  }

  add(d: Diagnostic): void {
    if (d.severity === 'warning') this.warnings.push(d);
    else if (this.errors.length < MAX_ERRORS) this.errors.push(d);
    else this.dropped++;
  }

  error(pos: SourcePos, p: Problem): void {
    this.add({ severity: 'error', pos, ...p });
  }

  warn(pos: SourcePos, p: Problem): void {
    this.add({ severity: 'warning', pos, ...p });
  }

  get full(): boolean {
    return this.errors.length >= MAX_ERRORS;
  }

  /** Throws an InputError carrying every error (then the warnings) if there was any error. */
  throwIfErrors(): void {
    if (this.errors.length === 0) return;
    const all = [...this.errors].sort((a, b) => a.pos.line - b.pos.line || a.pos.column - b.pos.column);
    if (this.dropped > 0) {
      const last = all[all.length - 1]!;
      all.push({ severity: 'error', pos: last.pos, message: `${this.dropped} more error(s) not shown` });
    }
    throw new InputError([...all, ...this.warnings]);
  }
}
