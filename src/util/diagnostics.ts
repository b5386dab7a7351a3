// Errors about the user's input: where (file:line:column), what was found, what was expected, how to fix.
import type { SourcePos } from '../model/grid.js';

export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly pos: SourcePos;
  readonly message: string;
  readonly found?: string;
  readonly expected?: string;
  readonly hint?: string;
}

/** Thrown when input is invalid; carries every error found (and any warnings). */
export class InputError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'InputError';
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  const parts = [`${d.pos.file}:${d.pos.line}:${d.pos.column}: ${d.severity}: ${d.message}`];
  if (d.found !== undefined) parts.push(`  found: ${d.found}`);
  if (d.expected !== undefined) parts.push(`  expected: ${d.expected}`);
  if (d.hint !== undefined) parts.push(`  fix: ${d.hint}`);
  return parts.join('\n');
}

/** Why a file could not be read, in words (the errno's code when it is not a common one). */
export function unreadableReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    default:
      return e.code ?? (e instanceof Error ? e.message : String(err));
  }
}

/** An input file that could not be read: "cannot read `what` (why)" at its first line, one error. */
export function unreadableFile(path: string, what: string, err: unknown, more: { readonly expected?: string; readonly hint?: string } = {}): InputError {
  return new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: `cannot read ${what} (${unreadableReason(err)})`, ...more }]);
}
