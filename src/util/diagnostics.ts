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
