// The experiment specification: a JSON file naming heuristics, strategy option sets, grids, applications,
// an optional swept variable and seeds. Checked with ajv; every error names file:line:column and the JSON
// path. Strings in grid and application entries may use ${VARIABLE} (the swept variable) and ${seed}.
import { strategyEnums } from '../scheduler/strategies/registry.js';
import { dirname, resolve } from 'node:path';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../scheduler/options.js';
import { compileSchema, checkAgainstSchema } from '../sweep/schema-check.js';
import { escapePointerToken, parseJsonSource, readJsonText, type JsonSource } from '../sweep/json-source.js';
import { generatorSpecDiagnostics } from '../generators/spec-check.js';
import { InputError, type Diagnostic } from '../util/diagnostics.js';
import { closestName, shortList } from '../util/names.js';
import { isPluginRef } from '../scheduler/heuristics/plugin.js';
import { SEEDS_SCHEMA, seedList, seedsProblems, type SeedsSpec } from './seeds.js';
import { MAX_SEED } from '../util/rng.js';

export type SweepValue = number | string;

/** Where a grid or an application comes from: a file (relative to the spec) or a generator. */
export type InputSpec =
  | { readonly file: string }
  | { readonly generator: 'fig11'; readonly sharedFileSizeKB: number | string; readonly seed?: number | string }
  | { readonly generator: 'fig11-grid' }
  | { readonly generator: 'mcell' | 'ins2d' | 'grid'; readonly spec: Record<string, unknown>; readonly seed?: number | string };

export interface ExperimentSpec {
  readonly name?: string;
  readonly heuristics: 'all' | readonly string[];
  /** Named partial scheduler options; default one set, "default", with no change. */
  readonly strategies?: Readonly<Record<string, Partial<Omit<SchedulerOptions, 'heuristic'>>>>;
  readonly grids: Readonly<Record<string, InputSpec>>;
  readonly applications: Readonly<Record<string, InputSpec>>;
  readonly sweep?: { readonly variable: string; readonly values: readonly SweepValue[] };
  readonly seeds: SeedsSpec;
  /** Behaviour sample period for the simulator (default: the simulator's, 5 s). */
  readonly samplePeriodS?: number;
}

/** A checked spec, with its source (for positions) and the folder its relative paths start from. */
export interface LoadedExperimentSpec {
  readonly spec: ExperimentSpec;
  readonly file: string;
  readonly baseDir: string;
  readonly heuristics: readonly string[];
  readonly strategies: ReadonlyArray<{ readonly name: string; readonly options: Partial<SchedulerOptions> }>;
  readonly seeds: readonly number[];
  readonly sweepValues: readonly (SweepValue | null)[];
  readonly source: JsonSource;
}


function strategySchema(): object {
  const properties: Record<string, object> = {};
  for (const [k, v] of Object.entries(DEFAULT_SCHEDULER_OPTIONS)) {
    if (k === 'heuristic') continue;
    const enumValues = strategyEnums()[k];
    if (enumValues) properties[k] = { enum: [...enumValues], description: `one of ${enumValues.join(', ')}` };
    else if (typeof v === 'number') properties[k] = { type: 'number', minimum: 0, description: 'a number >= 0' };
    else if (typeof v === 'boolean') properties[k] = { type: 'boolean', description: 'true or false' };
    else properties[k] = { type: typeof v };
  }
  return { type: 'object', properties, additionalProperties: false, description: 'scheduler options (see src/scheduler/options.ts)' };
}

const numberOrVar = { type: ['number', 'string'], description: 'a number or a "${variable}"' };
/** A generator's seed: what the random generator takes (as --seed and "seeds"), or a "${variable}". */
const seedOrVar = { anyOf: [{ type: 'integer', minimum: 0, maximum: MAX_SEED }, { type: 'string' }], description: `a whole number from 0 to ${MAX_SEED}, or a "\${variable}"` };

export const EXPERIMENT_SCHEMA = {
  type: 'object',
  required: ['heuristics', 'grids', 'applications', 'seeds'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', description: 'a name for the experiment' },
    heuristics: {
      description: '"all" or a list of heuristic names',
      oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
    },
    strategies: { type: 'object', additionalProperties: strategySchema(), minProperties: 1, description: 'named scheduler option sets' },
    grids: { type: 'object', additionalProperties: { $ref: '#/definitions/input' }, minProperties: 1, description: 'named grids' },
    applications: { type: 'object', additionalProperties: { $ref: '#/definitions/input' }, minProperties: 1, description: 'named applications' },
    sweep: {
      type: 'object',
      required: ['variable', 'values'],
      additionalProperties: false,
      properties: {
        variable: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'a variable name (letters, digits, _)' },
        values: { type: 'array', items: { type: ['number', 'string'] }, minItems: 1, description: 'the values taken by the variable' },
      },
    },
    seeds: SEEDS_SCHEMA,
    samplePeriodS: { type: 'number', exclusiveMinimum: 0, description: 'seconds > 0' },
  },
  definitions: {
    input: {
      type: 'object',
      description: '{"file": PATH} or {"generator": "fig11" | "fig11-grid" | "mcell" | "ins2d" | "grid", ...}',
      oneOf: [
        { type: 'object', required: ['file'], additionalProperties: false, properties: { file: { type: 'string', minLength: 1 } } },
        {
          type: 'object',
          required: ['generator', 'sharedFileSizeKB'],
          additionalProperties: false,
          properties: { generator: { const: 'fig11' }, sharedFileSizeKB: numberOrVar, seed: seedOrVar },
        },
        { type: 'object', required: ['generator'], additionalProperties: false, properties: { generator: { const: 'fig11-grid' } } },
        {
          type: 'object',
          required: ['generator', 'spec'],
          additionalProperties: false,
          properties: { generator: { enum: ['mcell', 'ins2d', 'grid'] }, spec: { type: 'object' }, seed: seedOrVar },
        },
      ],
    },
  },
} as const;

/** A heuristic the registry knows: specs may name it or give its code (e.g. "H3"). */
export interface KnownHeuristic {
  readonly name: string;
  readonly code?: string;
}

let validator: ReturnType<typeof compileSchema> | undefined;

/**
 * Schema errors of the generators' "spec" objects, checked with every value of the swept variable (and the
 * first seed) substituted, so that a mistake is found before any run; each mistake reported once.
 */
function generatorSpecProblems(source: JsonSource, spec: ExperimentSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const firstSeed = Array.isArray(spec.seeds) ? (spec.seeds as readonly number[])[0]! : ((spec.seeds as { first?: number }).first ?? 1);
  const values: readonly (SweepValue | undefined)[] = spec.sweep ? spec.sweep.values : [undefined];
  for (const group of ['grids', 'applications'] as const) {
    for (const [name, input] of Object.entries(spec[group])) {
      if (!('generator' in input) || !('spec' in input)) continue;
      const base = `/${group}/${escapePointerToken(name)}/spec`;
      for (const v of values) {
        const vars: Record<string, SweepValue> = { seed: firstSeed, ...(spec.sweep && v !== undefined ? { [spec.sweep.variable]: v } : {}) };
        for (const d of generatorSpecDiagnostics(input.generator, source, base, substituteVariables(input.spec, vars))) {
          const key = `${d.pos.line}:${d.pos.column}:${d.message}`;
          if (!seen.has(key)) out.push(d);
          seen.add(key);
        }
      }
    }
  }
  return out;
}

/** Names a spec may refer to with ${...}: the swept variable and the seed. */
export function allowedVariables(spec: ExperimentSpec): string[] {
  return spec.sweep ? [spec.sweep.variable, 'seed'] : ['seed'];
}

const VARIABLE_REF = /\$\{([^}]*)\}/g;

function collectVariableProblems(value: unknown, pointer: string, allowed: readonly string[], out: { pointer: string; name: string }[]): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(VARIABLE_REF)) if (!allowed.includes(m[1]!)) out.push({ pointer, name: m[1]! });
  } else if (Array.isArray(value)) value.forEach((v, i) => collectVariableProblems(v, `${pointer}/${i}`, allowed, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectVariableProblems(v, `${pointer}/${k}`, allowed, out);
  }
}

/**
 * Checks `text` (the content of `file`) and resolves "all" against `knownHeuristics` (the registry's names,
 * in registry order). Throws an InputError naming every problem.
 */
export function parseExperimentSpec(text: string, file: string, known: readonly (string | KnownHeuristic)[]): LoadedExperimentSpec {
  const source = parseJsonSource(text, file);
  validator ??= compileSchema(EXPERIMENT_SCHEMA);
  checkAgainstSchema(source, validator, 'experiment specification');
  const spec = source.value as ExperimentSpec;
  const problems: Diagnostic[] = [];

  const knownList = known.map((k) => (typeof k === 'string' ? { name: k } : k));
  const knownHeuristics = knownList.map((k) => k.name);
  const byCode = new Map(knownList.filter((k) => k.code !== undefined).map((k) => [k.code!.toUpperCase(), k.name]));
  // A plug-in's path counts from the spec's folder; the caller loads plug-ins first and passes their paths as known.
  const heuristics = spec.heuristics === 'all' ? [...knownHeuristics] : spec.heuristics.map((h) => (isPluginRef(h) ? resolve(dirname(file), h) : (byCode.get(h.toUpperCase()) ?? h)));
  if (spec.heuristics !== 'all') {
    heuristics.forEach((h, i) => {
      if (knownHeuristics.includes(h)) return;
      const near = closestName(h, knownHeuristics);
      problems.push({
        severity: 'error',
        pos: source.positionOf(`/heuristics/${i}`),
        message: `/heuristics/${i}: unknown heuristic "${h}"`,
        expected: `one of ${shortList([...knownHeuristics], 12)}`,
        hint: near ? `did you mean "${near}"?` : 'run `gridsweep simulate --help` for the list',
      });
    });
    const dup = heuristics.find((h, i) => heuristics.indexOf(h) !== i);
    if (dup) problems.push({ severity: 'error', pos: source.positionOf('/heuristics'), message: `/heuristics: "${dup}" is listed twice`, hint: 'list each heuristic once' });
  }

  const allowed = allowedVariables(spec);
  const bad: { pointer: string; name: string }[] = [];
  collectVariableProblems(spec.grids, '/grids', allowed, bad);
  collectVariableProblems(spec.applications, '/applications', allowed, bad);
  for (const b of bad) {
    problems.push({
      severity: 'error',
      pos: source.positionOf(b.pointer),
      message: `${b.pointer}: unknown variable "\${${b.name}}"`,
      expected: allowed.map((a) => `\${${a}}`).join(' or '),
      hint: spec.sweep ? `use \${${spec.sweep.variable}} or \${seed}` : 'declare it in "sweep": {"variable": ..., "values": [...]}',
    });
  }
  if (bad.length === 0) problems.push(...generatorSpecProblems(source, spec));
  problems.push(...seedsProblems(source, spec.seeds));
  if (spec.sweep) {
    const values = spec.sweep.values;
    const dupIndex = values.findIndex((v, i) => values.indexOf(v) !== i);
    if (dupIndex >= 0) {
      problems.push({ severity: 'error', pos: source.positionOf(`/sweep/values/${dupIndex}`), message: `/sweep/values/${dupIndex}: ${JSON.stringify(values[dupIndex])} is listed twice`, hint: 'list each value once' });
    }
  }
  if (problems.length > 0) throw new InputError(problems);

  const seeds = seedList(spec.seeds, []);
  const strategies = Object.entries(spec.strategies ?? { default: {} }).map(([name, options]) => ({ name, options }));
  return {
    spec,
    file,
    baseDir: dirname(resolve(file)),
    heuristics,
    strategies,
    seeds,
    sweepValues: spec.sweep ? [...spec.sweep.values] : [null],
    source,
  };
}

/** The text of an experiment specification file (sweep or batch); an InputError if it cannot be read. */
export function readSpecText(path: string): string {
  return readJsonText(path, 'the experiment specification');
}

export function loadExperimentSpec(path: string, knownHeuristics: readonly (string | KnownHeuristic)[]): LoadedExperimentSpec {
  return parseExperimentSpec(readSpecText(path), path, knownHeuristics);
}

/** Replaces ${name} in every string of `value`; a string that is exactly "${name}" takes the variable's own type. */
export function substituteVariables<T>(value: T, vars: Readonly<Record<string, SweepValue>>): T {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]*)\}$/.exec(value);
    if (whole && whole[1]! in vars) return vars[whole[1]!] as T;
    return value.replace(VARIABLE_REF, (m, name: string) => (name in vars ? String(vars[name]) : m)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => substituteVariables(v, vars)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteVariables(v, vars)])) as T;
  }
  return value;
}
