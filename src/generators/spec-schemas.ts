// JSON Schemas of the application and grid generators' specifications (McellSpec, Ins2dSpec, GridSpec).
// They are the one source of truth for these files: the schema check reports mistakes with file:line:column
// (src/sweep/schema-check.ts), and `gridsweep generate --help` and the README list every field from the
// descriptions, "default" and bounds written here (src/sweep/schema-doc.ts). Checks that involve several
// fields at once (a uniform law's min <= max, one run-time factor per architecture) stay in the generators.
import { MAX_TYPED_IDS } from '../formats/application.js';

/** The most tasks a generated application may have (the million-task benchmark's ten times). */
export const MAX_GENERATED_TASKS = 10_000_000;
/** The most files an application may have: the ids its format holds. */
export const MAX_GENERATED_FILES = MAX_TYPED_IDS;
/** The most hosts a generated grid may have, over all its clusters. */
export const MAX_GENERATED_HOSTS = 100_000;

const distributionBranches = (unit: string): object[] => [
  { type: 'number', description: 'a number V (the constant V)' },
  {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'value'],
    description: 'a constant {"kind": "constant", "value": V}',
    properties: { kind: { const: 'constant', description: '"constant"' }, value: { type: 'number', description: `the value, ${unit}` } },
  },
  {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'min', 'max'],
    description: 'a uniform law {"kind": "uniform", "min": A, "max": B}',
    properties: {
      kind: { const: 'uniform', description: '"uniform"' },
      min: { type: 'number', description: `the lowest value, ${unit}` },
      max: { type: 'number', description: `the highest value, ${unit} (>= min)` },
    },
  },
  {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'mean', 'stddev'],
    description: 'a truncated normal law {"kind": "normal", "mean": M, "stddev": S, "min": A, "max": B}',
    properties: {
      kind: { const: 'normal', description: '"normal"' },
      mean: { type: 'number', description: `the mean, ${unit}` },
      stddev: { type: 'number', minimum: 0, description: `the standard deviation, ${unit}` },
      min: { type: 'number', description: `values below are drawn again, ${unit}` },
      max: { type: 'number', description: `values above are drawn again, ${unit}` },
    },
  },
];

const distribution = (unit: string, what: string): object => ({
  description: `${what}, ${unit} (a distribution)`,
  oneOf: distributionBranches(unit),
});

/** The forms a distribution takes, from the schema's own descriptions (for help texts). */
export function distributionForms(): string {
  return distributionBranches('').map((b) => (b as { description: string }).description).join(', ');
}

const fractionPct = (what: string): object => ({
  type: 'number',
  minimum: 0,
  exclusiveMaximum: 100,
  default: 0,
  description: `${what}: estimates are the real value × (1 + U[-e, e] / 100), percent (0: exact)`,
});

const TASK_SHAPE_PROPERTIES = {
  unsharedInputsPerTask: { type: 'integer', minimum: 0, maximum: 1000, description: 'unshared input files each task reads, a count (at most 1000)' },
  unsharedInputSizeBytes: distribution('bytes', 'the size of each unshared input file'),
  outputSizeBytes: distribution('bytes', 'the size of the one output file of each task'),
  runTimeS: distribution('seconds', 'the run time of each task on architecture 0 at 100 % availability'),
  architectures: { type: 'integer', minimum: 1, maximum: 1000, default: 1, description: 'the number of architectures, a count (at most 1000)' },
  archRunTimeFactors: {
    type: 'array',
    items: { type: 'number', exclusiveMinimum: 0 },
    description: 'run time on architecture a = run time on architecture 0 × factor a; one factor > 0 per architecture (default all 1)',
  },
  ccr: {
    type: 'object',
    additionalProperties: false,
    required: ['ratio', 'referenceBandwidthBps'],
    description: 'computation/communication ratio {"ratio": R, "referenceBandwidthBps": B}: run times are scaled so that their total is R × (bytes moved once) / B (default: unscaled)',
    properties: {
      ratio: { type: 'number', exclusiveMinimum: 0, description: 'the ratio R, > 0' },
      referenceBandwidthBps: { type: 'number', exclusiveMinimum: 0, description: 'the bandwidth B, bytes/s, > 0' },
    },
  },
  runTimeEstimateErrorPct: fractionPct('error of run-time estimates'),
  sizeEstimateErrorPct: fractionPct('error of file-size estimates'),
} as const;

const TASK_SHAPE_REQUIRED = ['unsharedInputsPerTask', 'unsharedInputSizeBytes', 'outputSizeBytes', 'runTimeS'];

export const MCELL_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['chunks', 'tasksPerChunk', 'sharedFileSizeBytes', ...TASK_SHAPE_REQUIRED],
  description: 'an MCell-style application: chunks of tasks, each chunk sharing one large input file',
  properties: {
    $schema: { type: 'string' },
    chunks: { type: 'integer', minimum: 1, maximum: MAX_GENERATED_TASKS, description: 'the number of chunks (shared files), a count' },
    tasksPerChunk: { type: 'integer', minimum: 1, maximum: MAX_GENERATED_TASKS, description: `tasks reading each shared file, a count (chunks × tasksPerChunk at most ${MAX_GENERATED_TASKS})` },
    sharedFileSizeBytes: distribution('bytes', 'the size of each shared file'),
    perturbation: { type: 'number', minimum: 0, maximum: 1, default: 0, description: "fraction of tasks that read another chunk's shared file instead of their own" },
    ...TASK_SHAPE_PROPERTIES,
  },
} as const;

export const INS2D_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['tasks', ...TASK_SHAPE_REQUIRED],
  description: 'an INS2D-style application: independent tasks that share no file',
  properties: {
    $schema: { type: 'string' },
    tasks: { type: 'integer', minimum: 1, maximum: MAX_GENERATED_TASKS, description: `the number of tasks, a count (at most ${MAX_GENERATED_TASKS})` },
    ...TASK_SHAPE_PROPERTIES,
  },
} as const;

const series = (unit: string, what: string, bounds: object): object => ({
  description: `${what}, ${unit}: a number, or {"distribution": D, "samples": N} (a circular series of N values drawn from D)`,
  oneOf: [
    { type: 'number', ...bounds, description: `a constant, ${unit}` },
    {
      type: 'object',
      additionalProperties: false,
      required: ['distribution', 'samples'],
      description: 'a series {"distribution": D, "samples": N}',
      properties: {
        distribution: distribution(unit, `the law of ${what}`),
        samples: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'the length of the series, a count (at most 1,000,000)' },
      },
    },
  ],
});

export const GRID_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['clusters'],
  description: 'a grid: clusters of hosts and their links, optionally with failures and repairs',
  properties: {
    $schema: { type: 'string' },
    clusters: {
      type: 'array',
      minItems: 1,
      description: 'the clusters, a non-empty list',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['hosts', 'bandwidthBps', 'latencyMs'],
        description: 'a cluster {"name", "hosts", "bandwidthBps", "latencyMs"}',
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', description: 'the cluster name (letters, digits, _ . -; default cluster1, cluster2, …); its hosts are named NAME.h1, NAME.h2, …' },
          hosts: {
            type: 'array',
            minItems: 1,
            description: 'groups of hosts, a non-empty list',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['count', 'availabilityPct'],
              description: 'a group of hosts {"count", "availabilityPct", "arch"}',
              properties: {
                count: { type: 'integer', minimum: 0, maximum: MAX_GENERATED_HOSTS, description: `hosts in the group, a count (at most ${MAX_GENERATED_HOSTS} in the grid)` },
                availabilityPct: series('percent', 'the CPU availability of each host', { minimum: 0, maximum: 100 }),
                arch: { type: 'integer', minimum: 0, default: 0, description: 'the architecture index of these hosts' },
              },
            },
          },
          bandwidthBps: series('bytes/s', "the bandwidth of the cluster's link", { exclusiveMinimum: 0 }),
          latencyMs: series('milliseconds', "the latency of the cluster's link", { minimum: 0 }),
        },
      },
    },
    transient: {
      type: 'object',
      additionalProperties: false,
      required: ['horizonS'],
      description: 'failures and repairs until horizonS: hosts (and clusters, when their times are given) alternate up and down periods (default: none)',
      properties: {
        horizonS: { type: 'number', exclusiveMinimum: 0, description: 'when failures stop being drawn, seconds' },
        hostUpS: distribution('seconds', 'how long a host stays up (give hostDownS too)'),
        hostDownS: distribution('seconds', 'how long a host stays down (give hostUpS too)'),
        clusterUpS: distribution('seconds', 'how long a cluster stays up (give clusterDownS too)'),
        clusterDownS: distribution('seconds', 'how long a cluster stays down (give clusterUpS too)'),
        lateJoinFraction: { type: 'number', minimum: 0, maximum: 1, default: 0, description: 'fraction of hosts absent at time 0 that join at a time uniform in [0, horizonS)' },
      },
    },
  },
} as const;
