// Shared helpers for the format tests.
import { expect } from 'vitest';
import { InputError, type Diagnostic } from '../../src/util/diagnostics.js';

/** Runs `fn`, expects an InputError and returns its diagnostics. */
export function inputErrors(fn: () => unknown): readonly Diagnostic[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).diagnostics;
  }
  throw new Error('expected an InputError, but parsing succeeded');
}

/** "line:column message" for each error, for compact exact assertions. */
export function errorLines(diags: readonly Diagnostic[]): string[] {
  return diags.filter((d) => d.severity === 'error').map((d) => `${d.pos.line}:${d.pos.column} ${d.message}`);
}

/** The only error whose message contains `text` (fails if there is not exactly one). */
export function theError(diags: readonly Diagnostic[], text: string): Diagnostic {
  const found = diags.filter((d) => d.severity === 'error' && d.message.includes(text));
  expect(found, `errors containing "${text}" in:\n${diags.map((d) => d.message).join('\n')}`).toHaveLength(1);
  return found[0]!;
}
