// The batch experiment specification (AccaSim's "every combination" experiment): SWF workloads × batch
// policies × allocators, each run in trace mode. JSON with `"batch": 1`, checked against a schema; every
// error names file:line:column.
import { dirname, resolve } from 'node:path';
import { listAllocators } from '../allocators/registry.js';
import { listBatchPolicies } from '../policies/registry.js';
import type { WorkloadSpec } from '../workload-generator.js';
import { checkAgainstSchema, compileSchema } from '../../sweep/schema-check.js';
import { escapePointerToken, parseJsonSource, type JsonSource } from '../../sweep/json-source.js';
import { workloadSpecDiagnostics } from '../workload-schema.js';
import { InputError } from '../../util/diagnostics.js';
import { readSpecText } from '../../experiment/spec.js';

export type WorkloadSource = { readonly file: string } | { readonly generator: WorkloadSpec; readonly seed?: number };

export interface BatchExperimentSpec {
  readonly batch: 1;
  readonly name?: string;
  readonly workloads: Readonly<Record<string, WorkloadSource>>;
  readonly policies: 'all' | readonly string[];
  readonly allocators?: 'all' | readonly string[];
  readonly nodes?: number;
  readonly coresPerNode?: number;
  readonly boundedSlowdownThresholdS?: number;
}

export interface LoadedBatchExperiment {
  readonly spec: BatchExperimentSpec;
  readonly file: string;
  readonly baseDir: string;
  readonly policies: readonly string[];
  readonly allocators: readonly string[];
  /** For positions in later errors (a generator's parameters). */
  readonly source: JsonSource;
}

const names = (list: readonly { name: string }[]) => list.map((x) => x.name);

function schema(): object {
  const choice = (valid: readonly string[], what: string) => ({
    description: `"all" or a list of ${what}: ${valid.join(', ')}`,
    if: { type: 'string' },
    then: { const: 'all' },
    else: { type: 'array', items: { enum: [...valid] }, minItems: 1, uniqueItems: true },
  });
  const positiveInt = { type: 'integer', minimum: 1, description: 'a whole number >= 1' };
  return {
    type: 'object',
    required: ['batch', 'workloads', 'policies'],
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      batch: { const: 1, description: 'the format version, 1' },
      name: { type: 'string' },
      workloads: {
        type: 'object',
        minProperties: 1,
        description: 'named workloads: {"file": "W.swf"} or {"generator": {...}, "seed": N}',
        additionalProperties: {
          oneOf: [
            { type: 'object', required: ['file'], additionalProperties: false, properties: { file: { type: 'string', minLength: 1 } } },
            { type: 'object', required: ['generator'], additionalProperties: false, properties: { generator: { type: 'object' }, seed: { type: 'integer', minimum: 0 } } },
          ],
        },
      },
      policies: choice(names(listBatchPolicies()), 'batch policies'),
      allocators: choice(names(listAllocators()), 'allocators'),
      nodes: positiveInt,
      coresPerNode: positiveInt,
      boundedSlowdownThresholdS: { type: 'number', minimum: 0, description: 'seconds >= 0' },
    },
  };
}

let validator: ReturnType<typeof compileSchema> | undefined;

/** True when a parsed JSON document is a batch experiment (it has the "batch" key). */
export function isBatchExperiment(source: JsonSource): boolean {
  return typeof source.value === 'object' && source.value !== null && 'batch' in source.value;
}

export function readJsonSpec(path: string): JsonSource {
  return parseJsonSource(readSpecText(path), path);
}

export function loadBatchExperiment(source: JsonSource): LoadedBatchExperiment {
  validator ??= compileSchema(schema());
  checkAgainstSchema(source, validator, 'batch experiment specification');
  const spec = source.value as BatchExperimentSpec;
  const problems = Object.entries(spec.workloads).flatMap(([name, w]) =>
    'generator' in w ? workloadSpecDiagnostics(source, `/workloads/${escapePointerToken(name)}/generator`, w.generator) : [],
  );
  if (problems.length > 0) throw new InputError(problems);
  const pick = (value: 'all' | readonly string[] | undefined, all: readonly string[]): readonly string[] => (value === undefined || value === 'all' ? all : value);
  return {
    spec,
    file: source.file,
    baseDir: dirname(resolve(source.file)),
    policies: pick(spec.policies, names(listBatchPolicies())),
    allocators: pick(spec.allocators, names(listAllocators())),
    source,
  };
}
