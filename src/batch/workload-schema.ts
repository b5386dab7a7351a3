// JSON Schema of a synthetic batch workload's specification (WorkloadSpec, src/batch/workload-generator.ts):
// the one source of truth for `gridsweep generate swf` files and a batch experiment's {"generator": {...}}.
// The schema check reports mistakes with file:line:column; `generate --help` and the README list every
// field from the descriptions, defaults and bounds written here. The defaults are WORKLOAD_DEFAULTS.
import { schemaChecker } from '../sweep/schema-check.js';
import { WORKLOAD_DEFAULTS } from './workload-generator.js';
import { MAX_CORES_PER_NODE, MAX_NODES } from './cluster-limits.js';

const fraction = (what: string, dflt: number): object => ({ type: 'number', minimum: 0, maximum: 1, default: dflt, description: what });

/** The longest run or requested time a generated job may have, seconds (about 31 years; real traces' are months). */
export const MAX_JOB_TIME_S = 1e9;

export const WORKLOAD_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['jobs', 'nodes', 'coresPerNode'],
  description: 'a synthetic batch workload (arrivals on a weekly cycle, log-normal run times)',
  properties: {
    $schema: { type: 'string' },
    jobs: { type: 'integer', minimum: 1, description: 'jobs to generate, a count' },
    nodes: { type: 'integer', minimum: 1, maximum: MAX_NODES, description: 'nodes of the cluster the workload is made for, a count' },
    coresPerNode: { type: 'integer', minimum: 1, maximum: MAX_CORES_PER_NODE, description: 'cores per node, a count' },
    load: { type: 'number', exclusiveMinimum: 0, maximum: 10, default: WORKLOAD_DEFAULTS.load, description: "offered load: cores × run time per second over the cluster's cores" },
    serialFraction: fraction('fraction of jobs that take one core', WORKLOAD_DEFAULTS.serialFraction),
    powerOfTwoFraction: fraction('fraction of parallel jobs whose core count is a power of two', WORKLOAD_DEFAULTS.powerOfTwoFraction),
    maxJobCores: { type: 'integer', minimum: 1, description: "the most cores one job takes, at most the cluster's cores (default half the cluster's cores)" },
    runTimeMedianS: { type: 'number', minimum: 1, maximum: MAX_JOB_TIME_S, default: WORKLOAD_DEFAULTS.runTimeMedianS, description: `median run time, seconds (at most ${MAX_JOB_TIME_S})` },
    runTimeSigma: { type: 'number', minimum: 0, default: WORKLOAD_DEFAULTS.runTimeSigma, description: 'standard deviation of the logarithm of the run time' },
    maxRunTimeS: { type: 'integer', minimum: 1, maximum: MAX_JOB_TIME_S, default: WORKLOAD_DEFAULTS.maxRunTimeS, description: `longest run time and requested time, seconds (at most ${MAX_JOB_TIME_S})` },
    exactEstimateFraction: fraction('fraction of jobs whose requested time is their run time', WORKLOAD_DEFAULTS.exactEstimateFraction),
    overestimateMax: { type: 'number', minimum: 1, default: WORKLOAD_DEFAULTS.overestimateMax, description: 'other jobs request their run time × a factor uniform in [1, overestimateMax]' },
    requestRoundingS: { type: 'integer', minimum: 1, maximum: MAX_JOB_TIME_S, default: WORKLOAD_DEFAULTS.requestRoundingS, description: `requested times are rounded up to a multiple of this, seconds (at most ${MAX_JOB_TIME_S})` },
    weekStartS: { type: 'number', minimum: 0, exclusiveMaximum: 604800, default: WORKLOAD_DEFAULTS.weekStartS, description: 'where in the week time 0 falls, seconds from Monday 00:00 (32400: Monday 09:00, the busy hours)' },
  },
} as const;

/** The schema errors of a workload specification (the whole of `source`, or its part at pointer `base`). */
export const workloadSpecDiagnostics = schemaChecker(WORKLOAD_SPEC_SCHEMA, 'workload specification');
