// The batch experiment specification (AccaSim's "every combination" experiment): SWF workloads × machines
// × batch policies × allocators, each run in trace mode. JSON with `"batch": 1`, checked against a schema;
// every error names file:line:column. Machines are `bag` (the default) or meshes and tori; "all"
// allocators means, per machine, every allocator that fits it; a combination that cannot work (a
// contiguous allocator under conservative backfilling, a bag allocator on a mesh) is skipped and listed.
import { dirname, resolve } from 'node:path';
import { listAllocators } from '../../batch/allocators/registry.js';
import { checkClusterChoice, ClusterSetupError, machineOf } from '../../batch/cluster-setup.js';
import { nodeAllocatorShortNames } from '../../batch/machines/node-allocators/registry.js';
import { isTopology, type MachineSpec } from '../../batch/machines/registry.js';
import { listBatchPolicies } from '../../batch/policies/registry.js';
import type { WorkloadSpec } from '../../batch/workload-generator.js';
import { checkAgainstSchema, compileSchema } from '../../sweep/schema-check.js';
import { escapePointerToken, parseJsonSource, readJsonText, type JsonSource } from '../../sweep/json-source.js';
import { workloadSpecDiagnostics } from '../../batch/workload-schema.js';
import { InputError } from '../../util/diagnostics.js';
import { MAX_SEED } from '../../util/rng.js';

export type WorkloadSource = { readonly file: string } | { readonly generator: WorkloadSpec; readonly seed?: number };

export interface BatchExperimentSpec {
  readonly batch: 1;
  readonly name?: string;
  readonly workloads: Readonly<Record<string, WorkloadSource>>;
  readonly machines?: readonly string[];
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
  /** Every machine × policy × allocator to run, in that nesting order. */
  readonly cells: readonly BatchCell[];
  /** The combinations left out, and why. */
  readonly skipped: readonly (BatchCell & { readonly reason: string })[];
  /** For positions in later errors (a generator's parameters). */
  readonly source: JsonSource;
}

export interface BatchCell {
  readonly machine: string;
  readonly policy: string;
  readonly allocator: string;
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
            { type: 'object', required: ['generator'], additionalProperties: false, properties: { generator: { type: 'object' }, seed: { type: 'integer', minimum: 0, maximum: MAX_SEED } } },
          ],
        },
      },
      machines: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 }, description: 'machines: "bag" (default), "mesh:XxY[xZ]", "torus:XxY[xZ]"' },
      policies: choice(names(listBatchPolicies()), 'batch policies'),
      allocators: {
        description: `"all" (every allocator that fits each machine) or a list: ${names(listAllocators()).join(', ')} on the bag; ${nodeAllocatorShortNames().join(', ')} (with parameters) on a mesh or torus`,
        if: { type: 'string' },
        then: { const: 'all' },
        else: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, uniqueItems: true },
      },
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
  return parseJsonSource(readJsonText(path, 'the experiment specification'), path);
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
  const policies = pick(spec.policies, names(listBatchPolicies()));
  const machines = (spec.machines ?? ['bag']).map((name, i) => machineAt(source, name, i));
  const cells: BatchCell[] = [];
  const skipped: Array<BatchCell & { reason: string }> = [];
  const usable = new Set<string>();
  for (const machine of machines) {
    const machineName = isTopology(machine) ? machine.name : 'bag';
    const allocators = pick(spec.allocators, isTopology(machine) ? nodeAllocatorShortNames() : names(listAllocators()));
    for (const policy of policies) {
      for (const allocator of allocators) {
        try {
          checkClusterChoice(machine, allocator, policy);
          cells.push({ machine: machineName, policy, allocator });
          usable.add(allocator);
        } catch (err) {
          if (!(err instanceof ClusterSetupError)) throw err;
          skipped.push({ machine: machineName, policy, allocator, reason: err.message });
        }
      }
    }
  }
  if (Array.isArray(spec.allocators)) {
    const i = spec.allocators.findIndex((a) => !usable.has(a));
    if (i >= 0) {
      const reason = skipped.find((x) => x.allocator === spec.allocators![i])?.reason ?? 'it fits no machine of the experiment';
      throw new InputError([{ severity: 'error', pos: source.positionOf(`/allocators/${i}`), message: `allocator '${spec.allocators[i]}' runs in no combination: ${reason}`, hint: 'correct the name, or add a machine it fits to "machines"' }]);
    }
  }
  return { spec, file: source.file, baseDir: dirname(resolve(source.file)), policies, cells, skipped, source };
}

function machineAt(source: JsonSource, name: string, i: number): MachineSpec {
  try {
    return machineOf(name);
  } catch (err) {
    if (!(err instanceof ClusterSetupError)) throw err;
    throw new InputError([{ severity: 'error', pos: source.positionOf(`/machines/${i}`), message: err.message, expected: 'bag, mesh:XxY[xZ] or torus:XxY[xZ]' }]);
  }
}
