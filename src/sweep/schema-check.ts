// Checks a parsed JSON document against a JSON Schema (ajv) and turns the violations into Diagnostics that
// name file:line:column, the JSON path, what was found and how to fix it — one diagnostic per mistake.
//
// ajv (with allErrors) reports every failing branch of a oneOf/anyOf, so one typo gave several errors, some
// of them advice for a branch the document never meant. Here each failing oneOf/anyOf is narrowed to the
// branch the document most likely meant, and only that branch's errors are kept:
//   1. branches whose JSON type cannot hold the value are out (none left: one "expected …" error);
//   2. a discriminating key (a property that branches pin with "const"/"enum", such as "type", "kind" or
//      "generator") present in the value keeps the branches it matches (none matches: one error on that
//      key, with "did you mean");
//   3. among the rest, the branch declaring the most of the value's keys wins; ties go to the first branch
//      in the schema's order.
// An unknown key that is a near miss of a missing required key ("slot" for "slots") is one mistake: only
// the unknown key is reported, with "did you mean" and the keys allowed there.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Diagnostic } from '../util/diagnostics.js';
import { InputError } from '../util/diagnostics.js';
import { closestName } from '../util/names.js';
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

type Schema = Record<string, unknown>;

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}

function typeAccepts(type: string, v: unknown): boolean {
  const t = jsonTypeOf(v);
  return type === t || (type === 'number' && t === 'integer');
}

/** Whether the value's JSON type is one the branch can hold (judged from "type", else "const"/"enum"). */
function typeFits(branch: Schema, v: unknown): boolean {
  const type = branch['type'];
  if (typeof type === 'string') return typeAccepts(type, v);
  if (Array.isArray(type)) return type.some((t) => typeAccepts(t as string, v));
  if ('const' in branch) return typeAccepts(jsonTypeOf(branch['const']), v);
  if (Array.isArray(branch['enum'])) return (branch['enum'] as unknown[]).some((e) => typeAccepts(jsonTypeOf(e), v));
  return true;
}

/** The values a branch pins a property to ("const" or "enum"), or undefined when it does not. */
function pinnedValues(branch: Schema, key: string): unknown[] | undefined {
  const prop = (branch['properties'] as Record<string, Schema> | undefined)?.[key];
  if (prop === undefined) return undefined;
  if ('const' in prop) return [prop['const']];
  if (Array.isArray(prop['enum'])) return prop['enum'] as unknown[];
  return undefined;
}

type BranchChoice =
  | { readonly kind: 'branch'; readonly index: number }
  | { readonly kind: 'no-type' }
  | { readonly kind: 'no-discriminator'; readonly key: string; readonly allowed: readonly unknown[] };

/** The branch of a oneOf/anyOf the value most likely meant (rules in the header). */
export function chooseBranch(branches: readonly Schema[], value: unknown): BranchChoice {
  let candidates = branches.map((_, i) => i).filter((i) => typeFits(branches[i]!, value));
  if (candidates.length === 0) return { kind: 'no-type' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'branch', index: candidates[0]! };
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const pinning = candidates.filter((i) => pinnedValues(branches[i]!, key) !== undefined);
    if (pinning.length === 0) continue;
    const matching = pinning.filter((i) => pinnedValues(branches[i]!, key)!.some((p) => p === obj[key]));
    if (matching.length === 0) {
      const allowed = [...new Set(pinning.flatMap((i) => pinnedValues(branches[i]!, key)!))];
      return { kind: 'no-discriminator', key, allowed };
    }
    candidates = matching;
  }
  let best = candidates[0]!;
  let bestScore = -1;
  for (const i of candidates) {
    const props = (branches[i]!['properties'] as object | undefined) ?? {};
    const score = Object.keys(obj).filter((k) => Object.prototype.hasOwnProperty.call(props, k)).length;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return { kind: 'branch', index: best };
}

/** A place in the document: the JSON pointer inside the checked value, and the prefix that locates it. */
interface Where {
  readonly source: JsonSource;
  readonly base: string;
}

function pathText(where: Where, instancePath: string): string {
  const p = where.base + instancePath;
  return p === '' ? '(top level)' : p;
}

function didYouMean(found: unknown, allowed: readonly unknown[]): string | undefined {
  if (typeof found !== 'string') return undefined;
  return closestName(found, allowed.filter((a): a is string => typeof a === 'string'));
}

function expectedOf(e: ErrorObject): string {
  const described = (e.parentSchema as { description?: string } | undefined)?.description;
  if (e.keyword === 'enum') return `one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(describeValue).join(', ')}`;
  if (e.keyword === 'const') return describeValue((e.params as { allowedValue: unknown }).allowedValue);
  return described ?? keywordExpectation(e) ?? e.message ?? 'a valid value';
}

const TYPE_NAMES: Readonly<Record<string, string>> = { integer: 'a whole number', number: 'a number', string: 'a string', boolean: 'true or false', array: 'a list', object: 'an object', null: 'null' };

/** What a keyword that failed asks for, as a phrase to write after "write" (undefined: no better than ajv's message). */
function keywordExpectation(e: ErrorObject): string | undefined {
  const params = e.params as { limit?: number; type?: string | string[] };
  switch (e.keyword) {
    case 'type':
      return (Array.isArray(params.type) ? params.type : String(params.type).split(','))
        .map((t) => TYPE_NAMES[t] ?? t)
        .join(' or ');
    case 'maximum':
      return `a number of at most ${params.limit}`;
    case 'minimum':
      return `a number of at least ${params.limit}`;
    case 'exclusiveMaximum':
      return `a number below ${params.limit}`;
    case 'exclusiveMinimum':
      return `a number above ${params.limit}`;
    case 'minItems':
      return `a list of at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `a list of at most ${params.limit} items`;
    case 'uniqueItems':
      return 'a list that names each item once';
    case 'minLength':
      return params.limit === 1 ? 'a non-empty string' : `a string of at least ${params.limit} characters`;
    case 'maxLength':
      return `a string of at most ${params.limit} characters`;
    default:
      return undefined;
  }
}

/** The forms a oneOf/anyOf allows, from its branches' descriptions ("one of: A, B or C"); undefined unless each has one. */
function formsOf(e: ErrorObject): string | undefined {
  const branches = Array.isArray(e.schema) ? (e.schema as Schema[]) : [];
  const forms = branches.map((b) => b.description);
  if (forms.length < 2 || !forms.every((f): f is string => typeof f === 'string')) return undefined;
  return `one of: ${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]!}`;
}

function toDiagnostic(where: Where, e: ErrorObject, suggestions: ReadonlyMap<ErrorObject, string>): Diagnostic {
  const { source, base } = where;
  const described = (e.parentSchema as { description?: string } | undefined)?.description;
  const path = pathText(where, e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const prop = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {}).filter((k) => k !== '$schema');
      const guess = suggestions.get(e);
      return {
        severity: 'error',
        pos: source.keyPositionOf(`${base}${e.instancePath}/${escapePointerToken(prop)}`),
        message: `${path}: unknown property "${prop}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
        expected: allowed.length > 0 ? `one of ${allowed.map((a) => `"${a}"`).join(', ')}` : 'no properties here',
        hint: guess ? `write "${guess}"` : 'remove it or correct its spelling',
      };
    }
    case 'required': {
      const prop = (e.params as { missingProperty: string }).missingProperty;
      const propSchema = (e.parentSchema as { properties?: Record<string, { description?: string }> }).properties?.[prop];
      const what = propSchema?.description ?? described;
      return {
        severity: 'error',
        pos: source.positionOf(base + e.instancePath),
        message: `${path}: missing property "${prop}"`,
        hint: `add "${prop}"${what ? ` (${what})` : ''}`,
      };
    }
    case 'oneOf':
    case 'anyOf': {
      const several = (e.params as { passingSchemas?: unknown }).passingSchemas != null;
      return {
        severity: 'error',
        pos: source.positionOf(base + e.instancePath),
        message: several ? `${path}: fits more than one of the allowed forms` : `${path}: wrong type of value`,
        found: describeValue(e.data),
        expected: described ?? 'a valid value',
        hint: several ? 'keep only the keys of the form you mean' : `write ${formsOf(e) ?? described ?? 'a valid value'}`,
      };
    }
    default: {
      if (e.propertyName !== undefined) {
        const expected = described ?? (e.keyword === 'pattern' ? `a name matching ${(e.params as { pattern: string }).pattern}` : (e.message ?? 'a valid name'));
        return {
          severity: 'error',
          pos: source.keyPositionOf(`${base}${e.instancePath}/${escapePointerToken(e.propertyName)}`),
          message: `${path}: property name "${e.propertyName}" is not allowed here`,
          found: describeValue(e.propertyName),
          expected,
          hint: `rename it: ${expected}`,
        };
      }
      const expected = expectedOf(e);
      const allowed = e.keyword === 'enum' ? (e.params as { allowedValues: unknown[] }).allowedValues : e.keyword === 'const' ? [(e.params as { allowedValue: unknown }).allowedValue] : [];
      const guess = didYouMean(e.data, allowed);
      return {
        severity: 'error',
        pos: source.positionOf(base + e.instancePath),
        message: `${path}: ${e.message ?? 'invalid value'}${guess ? ` (did you mean "${guess}"?)` : ''}`,
        found: describeValue(e.data),
        expected,
        hint: guess ? `write "${guess}"` : `write ${expected}`,
      };
    }
  }
}

function inBranch(e: ErrorObject, union: ErrorObject, index: number): boolean {
  if (e === union) return false;
  if (e.instancePath !== union.instancePath && !e.instancePath.startsWith(`${union.instancePath}/`)) return false;
  const prefix = `${union.schemaPath}/${index}`;
  return e.schemaPath === prefix || e.schemaPath.startsWith(`${prefix}/`);
}

/** Every diagnostic for `value` (the document, or its part at JSON pointer `base`) against `validate`. */
export function schemaDiagnostics(source: JsonSource, validate: ValidateFunction, what: string, base = '', value: unknown = source.value): Diagnostic[] {
  if (validate(value)) return [];
  const all = validate.errors ?? [];
  const where: Where = { source, base };
  const dropped = new Set<ErrorObject>();
  const extra: Diagnostic[] = [];
  for (const u of all) {
    if (u.keyword === 'if' || u.keyword === 'propertyNames') {
      // Summaries of errors reported on their own (the taken then/else branch, the offending name).
      const under = (e: ErrorObject): boolean => e.instancePath === u.instancePath || e.instancePath.startsWith(`${u.instancePath}/`);
      if (all.some((e) => e !== u && under(e) && e.keyword !== u.keyword)) dropped.add(u);
      continue;
    }
    if (u.keyword !== 'oneOf' && u.keyword !== 'anyOf') continue;
    const branches = u.schema as Schema[];
    if ((u.params as { passingSchemas?: unknown }).passingSchemas != null) continue; // matches several branches: say so
    const choice = chooseBranch(branches, u.data);
    for (const e of all) {
      for (let i = 0; i < branches.length; i++) {
        if ((choice.kind !== 'branch' || i !== choice.index) && inBranch(e, u, i)) dropped.add(e);
      }
    }
    if (choice.kind === 'branch') {
      dropped.add(u);
    } else if (choice.kind === 'no-discriminator') {
      dropped.add(u);
      const found = (u.data as Record<string, unknown>)[choice.key];
      const guess = didYouMean(found, choice.allowed);
      const pointer = `${base}${u.instancePath}/${escapePointerToken(choice.key)}`;
      extra.push({
        severity: 'error',
        pos: source.positionOf(pointer),
        message: `${pathText(where, `${u.instancePath}/${escapePointerToken(choice.key)}`)}: unknown ${describeValue(choice.key)} ${describeValue(found)}${guess ? ` (did you mean "${guess}"?)` : ''}`,
        found: describeValue(found),
        expected: `one of ${choice.allowed.map(describeValue).join(', ')}`,
        hint: guess ? `write "${guess}"` : `write one of ${choice.allowed.map(describeValue).join(', ')}`,
      });
    }
  }
  let errors = all.filter((e) => !dropped.has(e));
  // "slot" where "slots" is required: one mistake, reported once, on the unknown key.
  const suggestions = new Map<ErrorObject, string>();
  const covered = new Set<ErrorObject>();
  for (const e of errors) {
    if (e.keyword !== 'additionalProperties') continue;
    const prop = (e.params as { additionalProperty: string }).additionalProperty;
    const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
    const guess = closestName(prop, allowed);
    if (guess === undefined) continue;
    suggestions.set(e, guess);
    for (const r of errors) {
      if (r.keyword === 'required' && r.instancePath === e.instancePath && (r.params as { missingProperty: string }).missingProperty === guess) covered.add(r);
    }
  }
  errors = errors.filter((e) => !covered.has(e));
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const d of [...extra, ...errors.map((e) => toDiagnostic(where, e, suggestions))]) {
    const key = `${d.pos.line}:${d.pos.column}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push(d);
  }
  if (diagnostics.length === 0) {
    diagnostics.push({ severity: 'error', pos: source.positionOf(base), message: `not a valid ${what}` });
  }
  return diagnostics;
}

/** Throws an InputError with one diagnostic per mistake in `source` (rules in the header). */
export function checkAgainstSchema(source: JsonSource, validate: ValidateFunction, what: string): void {
  const diagnostics = schemaDiagnostics(source, validate, what);
  if (diagnostics.length > 0) throw new InputError(diagnostics);
}

/** A checker for one schema, compiled on first use: the diagnostics of `value` (at pointer `base` of `source`). */
export function schemaChecker(schema: object, what: string): (source: JsonSource, base?: string, value?: unknown) => Diagnostic[] {
  let validate: ValidateFunction | undefined;
  return (source, base = '', value = source.value) => {
    validate ??= compileSchema(schema);
    return schemaDiagnostics(source, validate, what, base, value);
  };
}
