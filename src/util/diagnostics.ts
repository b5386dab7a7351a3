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

/** Why a file could not be read or written, by the errno's code. */
const FILE_ERROR_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of its path is a file, not a folder',
  // What making a file's folders says when a file is where one of them goes.
  EEXIST: 'a part of its path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error',
};

/** Why a file could not be read or written, in words (the errno's code, or the message, when not a common one). */
export function fileErrorReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e.code === undefined ? undefined : FILE_ERROR_REASONS[e.code]) ?? e.code ?? (e instanceof Error ? e.message : String(err));
}

/** An input file that could not be read: "cannot read `what` (why)" at its first line, one error. */
export function unreadableFile(path: string, what: string, err: unknown, more: { readonly expected?: string; readonly hint?: string } = {}): InputError {
  return new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: `cannot read ${what} (${fileErrorReason(err)})`, ...more }]);
}
