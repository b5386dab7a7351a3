// Checks a parsed JSON document against a JSON Schema (ajv) and turns every violation into a Diagnostic
// that names file:line:column, the JSON path, what was found and how to fix it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Diagnostic } from '../util/diagnostics.js';
import { InputError } from '../util/diagnostics.js';
import { escapePointerToken, type JsonSource } from './json-source.js';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });

export function compileSchema(schema: object): ValidateFunction {
  return ajv.compile(schema);
}

function describeValue(v: unknown): string {
  const s = JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function toDiagnostic(source: JsonSource, e: ErrorObject): Diagnostic {
  const described = (e.parentSchema as { description?: string } | undefined)?.description;
  const path = e.instancePath === '' ? '(top level)' : e.instancePath;
  switch (e.keyword) {
    case 'additionalProperties': {
      const prop = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
      return {
        severity: 'error',
        pos: source.positionOf(`${e.instancePath}/${escapePointerToken(prop)}`),
        message: `${path}: unknown property "${prop}"`,
        expected: allowed.length > 0 ? `one of ${allowed.map((a) => `"${a}"`).join(', ')}` : 'no properties here',
        hint: 'remove it or correct its spelling',
      };
    }
    case 'required': {
      const prop = (e.params as { missingProperty: string }).missingProperty;
      return {
        severity: 'error',
        pos: source.positionOf(e.instancePath),
        message: `${path}: missing property "${prop}"`,
        hint: `add "${prop}"${described ? ` (${described})` : ''}`,
      };
    }
    default: {
      const expected =
        e.keyword === 'enum'
          ? `one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(describeValue).join(', ')}`
          : (described ?? e.message ?? 'a valid value');
      return {
        severity: 'error',
        pos: source.positionOf(e.instancePath),
        message: `${path}: ${e.message ?? 'invalid value'}`,
        found: describeValue(e.data),
        expected,
        hint: `write ${expected}`,
      };
    }
  }
}

/** Throws an InputError listing every schema violation in `source`, one per place. */
export function checkAgainstSchema(source: JsonSource, validate: ValidateFunction, what: string): void {
  if (validate(source.value)) return;
  let errors = validate.errors ?? [];
  // oneOf/anyOf summaries repeat what their branches said; keep them only when nothing more precise exists.
  const precise = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  if (precise.length > 0) errors = precise;
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const e of errors) {
    const d = toDiagnostic(source, e);
    const key = `${d.pos.line}:${d.pos.column}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push(d);
  }
  if (diagnostics.length === 0) {
    diagnostics.push({ severity: 'error', pos: source.positionOf(''), message: `not a valid ${what}` });
  }
  throw new InputError(diagnostics);
}
