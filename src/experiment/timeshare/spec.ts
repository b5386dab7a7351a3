// The time-sharing experiment specification: JSON with `"timeshare": 1`, naming strategy configurations,
// workloads (generated structured mixes, or SWF files run as rigid jobs) and the dimensions crossed with
// them — MPL, time slice, offered load, seeds. Checked against a schema, then every strategy configuration
// against its strategy's parameters; every error names file:line:column and the JSON path.
import { dirname, resolve } from 'node:path';
import { getTimeshareStrategy, listTimeshareStrategies } from '../../batch/timeshare/registry.js';
import { JOB_CLASSES, resolveJobClasses, type StructuredWorkloadSpec } from '../../batch/timeshare/workload-generator.js';
import { COMM_PATTERNS } from '../../batch/timeshare/job-structure.js';
import { checkAgainstSchema, compileSchema } from '../../sweep/schema-check.js';
import { escapePointerToken, type JsonSource } from '../../sweep/json-source.js';
import { InputError, type Diagnostic } from '../../util/diagnostics.js';
import type { WorkloadSpec } from '../../batch/workload-generator.js';
import { workloadSpecDiagnostics } from '../../batch/workload-schema.js';
import { MAX_TIMESHARED_CPUS } from '../../batch/cluster-limits.js';
import { SEEDS_SCHEMA, seedList, seedsProblems, type SeedsSpec } from '../seeds.js';

/** A generated workload: the generator's parameters less seed, nodes and load (the experiment's dimensions). */
export type TimeshareGeneratorSpec = Omit<StructuredWorkloadSpec, 'seed' | 'nodes' | 'load'>;

/**
 * A file (SWF, rigid jobs), a generated structured mix, or a generated rigid batch workload (the batch
 * workload generator's parameters: `gridsweep generate swf`; its cores map onto single-CPU nodes).
 */
export type TimeshareWorkloadSource = { readonly file: string } | { readonly generator: TimeshareGeneratorSpec } | { readonly rigid: WorkloadSpec };

/** A named strategy configuration: the strategy and values for its parameters (the rest take defaults). */
export type StrategyConfigSpec = { readonly strategy: string } & Readonly<Record<string, number | string>>;

export type PlotAxis = 'load' | 'mpl' | 'slice';

export interface TimeshareExperimentSpec {
  readonly timeshare: 1;
  readonly name?: string;
  readonly nodes: number;
  readonly strategies: Readonly<Record<string, StrategyConfigSpec>>;
  readonly workloads: Readonly<Record<string, TimeshareWorkloadSource>>;
  readonly mpl?: readonly number[];
  readonly slice?: readonly number[];
  readonly load?: readonly number[];
  readonly seeds?: SeedsSpec;
  /** The x axis of the response-time plots (default: the first of load, mpl, slice with several values). */
  readonly x?: PlotAxis;
}

export interface LoadedTimeshareStrategy {
  readonly name: string;
  readonly strategy: string;
  /** The values given in the spec (numbers; "Infinity" read as Infinity). */
  readonly values: Readonly<Record<string, number>>;
}

export interface LoadedTimeshareExperiment {
  readonly spec: TimeshareExperimentSpec;
  readonly file: string;
  readonly baseDir: string;
  readonly strategies: readonly LoadedTimeshareStrategy[];
  /** null: the dimension is not swept (each strategy's own value or default). */
  readonly mpls: readonly (number | null)[];
  readonly slices: readonly (number | null)[];
  readonly loads: readonly number[];
  readonly seeds: readonly number[];
  readonly x: PlotAxis;
  readonly source: JsonSource;
}

const DEFAULT_LOAD = 0.7;

function schema(): object {
  const numbers = (min: number, integer: boolean, what: string) => ({
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: integer ? { type: 'integer', minimum: min } : { type: 'number', exclusiveMinimum: min },
    description: `a list of ${what}`,
  });
  const shape = {
    type: 'object',
    additionalProperties: false,
    description: 'fields of a job class: computeS, ioS, skew, iterations [min, max], patterns, messageBytes',
    properties: {
      computeS: { type: 'number', exclusiveMinimum: 0, description: 'seconds > 0' },
      ioS: { type: 'number', minimum: 0, description: 'seconds >= 0' },
      skew: { type: 'number', minimum: 0, exclusiveMaximum: 1, description: 'from 0 to below 1' },
      iterations: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 2, maxItems: 2, description: '[min, max], whole numbers >= 1' },
      patterns: { type: 'array', items: { enum: [...COMM_PATTERNS] }, minItems: 1, description: `a list of ${COMM_PATTERNS.join(', ')}` },
      messageBytes: { type: 'number', minimum: 0, description: 'bytes >= 0' },
    },
  };
  const generator = {
    type: 'object',
    required: ['jobs'],
    additionalProperties: false,
    properties: {
      jobs: { type: 'integer', minimum: 1, description: 'a whole number >= 1' },
      minTasks: { type: 'integer', minimum: 1, description: 'a whole number >= 1' },
      maxTasks: { type: 'integer', minimum: 1, description: 'a whole number >= 1' },
      mix: { type: 'object', additionalProperties: false, properties: Object.fromEntries(JOB_CLASSES.map((c) => [c, { type: 'number', minimum: 0 }])), description: `shares of ${JOB_CLASSES.join(', ')}` },
      classes: { type: 'object', additionalProperties: false, properties: Object.fromEntries(JOB_CLASSES.map((c) => [c, shape])), description: `per class (${JOB_CLASSES.join(', ')}), fields replacing the defaults` },
    },
  };
  return {
    type: 'object',
    required: ['timeshare', 'nodes', 'strategies', 'workloads'],
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      timeshare: { const: 1, description: 'the format version, 1' },
      name: { type: 'string' },
      nodes: { type: 'integer', minimum: 1, maximum: MAX_TIMESHARED_CPUS, description: `a whole number from 1 to ${MAX_TIMESHARED_CPUS}` },
      strategies: {
        type: 'object',
        minProperties: 1,
        description: `named configurations: {"strategy": one of ${listTimeshareStrategies().map((s) => s.name).join(', ')}, PARAMETER: number, ...}`,
        additionalProperties: {
          type: 'object',
          required: ['strategy'],
          properties: { strategy: { enum: listTimeshareStrategies().map((s) => s.name) } },
          additionalProperties: { oneOf: [{ type: 'number' }, { const: 'Infinity' }], description: 'a number (or "Infinity")' },
        },
      },
      workloads: {
        type: 'object',
        minProperties: 1,
        description: 'named workloads: {"generator": {"jobs": N, ...}}, {"rigid": {"jobs": N, "nodes": N, "coresPerNode": N, ...}} or {"file": "W.swf"}',
        additionalProperties: {
          oneOf: [
            { type: 'object', required: ['file'], additionalProperties: false, properties: { file: { type: 'string', minLength: 1 } } },
            { type: 'object', required: ['generator'], additionalProperties: false, properties: { generator } },
            { type: 'object', required: ['rigid'], additionalProperties: false, properties: { rigid: { type: 'object' } } },
          ],
        },
      },
      mpl: numbers(1, true, 'multiprogramming levels (whole numbers >= 1)'),
      slice: numbers(0, false, 'time slices (seconds > 0)'),
      load: numbers(0, false, 'offered loads (> 0)'),
      seeds: SEEDS_SCHEMA,
      x: { enum: ['load', 'mpl', 'slice'], description: 'the x axis of the response-time plots: load, mpl or slice' },
    },
  };
}

let validator: ReturnType<typeof compileSchema> | undefined;

/** True when a parsed JSON document is a time-sharing experiment (it has the "timeshare" key). */
export function isTimeshareExperiment(source: JsonSource): boolean {
  return typeof source.value === 'object' && source.value !== null && 'timeshare' in source.value;
}

/** The numbers of a strategy configuration: "strategy" left out, "Infinity" read as Infinity. */
export function strategyValues(config: StrategyConfigSpec): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(config)) if (k !== 'strategy') out[k] = v === 'Infinity' ? Infinity : (v as number);
  return out;
}

export function loadTimeshareExperiment(source: JsonSource): LoadedTimeshareExperiment {
  validator ??= compileSchema(schema());
  checkAgainstSchema(source, validator, 'time-sharing experiment specification');
  const spec = source.value as TimeshareExperimentSpec;
  const problems: Diagnostic[] = [];
  const mpls = spec.mpl ?? [null];
  const slices = spec.slice ?? [null];
  const strategies: LoadedTimeshareStrategy[] = [];
  for (const [name, config] of Object.entries(spec.strategies)) {
    const values = strategyValues(config);
    const strategy = getTimeshareStrategy(config.strategy);
    // Every value of the swept dimensions must fit this strategy (a context switch shorter than each slice).
    for (const mpl of mpls) {
      for (const slice of slices) {
        try {
          strategy.configure({ ...values, ...(mpl === null ? {} : { mpl }), ...(slice === null ? {} : { slice }) });
        } catch (err) {
          const at = `/strategies/${escapePointerToken(name)}`;
          const message = `${at}: ${(err as Error).message}`;
          if (!problems.some((p) => p.message === message)) {
            problems.push({ severity: 'error', pos: source.positionOf(at), message, hint: `parameters of ${config.strategy}: ${strategy.parameters.map((p) => p.name).join(', ')}` });
          }
        }
      }
    }
    strategies.push({ name, strategy: config.strategy, values });
  }
  let generated = false;
  for (const [name, w] of Object.entries(spec.workloads)) {
    if ('rigid' in w) {
      generated = true;
      const at = `/workloads/${escapePointerToken(name)}/rigid`;
      const found = workloadSpecDiagnostics(source, at, w.rigid);
      problems.push(...found);
      if (found.length === 0 && w.rigid.nodes * w.rigid.coresPerNode > spec.nodes) {
        problems.push({ severity: 'error', pos: source.positionOf(at), message: `${at}: ${w.rigid.nodes} × ${w.rigid.coresPerNode} cores do not fit ${spec.nodes} nodes (one core per node)`, hint: 'lower nodes/coresPerNode or raise "nodes"' });
      }
      continue;
    }
    if (!('generator' in w)) continue;
    generated = true;
    const at = `/workloads/${escapePointerToken(name)}/generator`;
    try {
      resolveJobClasses(w.generator.classes);
    } catch (err) {
      problems.push({ severity: 'error', pos: source.positionOf(`${at}/classes`), message: `${at}/classes: ${(err as Error).message}`, hint: 'correct this class field' });
    }
    const mix = w.generator.mix;
    if (mix !== undefined && !Object.values(mix).some((v) => (v ?? 0) > 0)) {
      problems.push({ severity: 'error', pos: source.positionOf(`${at}/mix`), message: `${at}/mix: no class has a share > 0`, hint: 'give comm, io or cpu a positive share' });
    }
    if ((w.generator.maxTasks ?? 2) > spec.nodes || (w.generator.minTasks ?? 1) > spec.nodes) {
      problems.push({ severity: 'error', pos: source.positionOf(at), message: `${at}: jobs of up to ${Math.max(w.generator.maxTasks ?? 0, w.generator.minTasks ?? 0)} tasks do not fit ${spec.nodes} nodes (one task per node)`, hint: 'lower maxTasks/minTasks or raise "nodes"' });
    }
  }
  problems.push(...seedsProblems(source, spec.seeds));
  if (!generated && spec.load !== undefined) {
    problems.push({ severity: 'error', pos: source.positionOf('/load'), message: '/load: no workload is generated, and an SWF file has its own arrivals', hint: 'remove "load", or add a {"generator": ...} workload' });
  }
  if (problems.length > 0) throw new InputError(problems);
  const seeds = seedList(spec.seeds, [1]);
  const loads = spec.load ?? [DEFAULT_LOAD];
  const x: PlotAxis = spec.x ?? (loads.length > 1 ? 'load' : mpls.length > 1 ? 'mpl' : slices.length > 1 ? 'slice' : 'load');
  return { spec, file: source.file, baseDir: dirname(resolve(source.file)), strategies, mpls, slices, loads, seeds, x, source };
}
