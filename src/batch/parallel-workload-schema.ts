// JSON Schema of a generated parallel workload's specification (StructuredWorkloadSpec of
// src/batch/timeshare/workload-generator.ts, less the seed, which is `--seed`): the one source of truth
// for `gridsweep generate parallel` files, their file:line:column errors and the fields listed in
// `generate --help` and the README.
import { schemaChecker } from '../sweep/schema-check.js';
import { MAX_TIMESHARED_CPUS } from './cluster-limits.js';

const share = (what: string): object => ({ type: 'number', minimum: 0, description: `share of ${what} jobs (relative weight)` });

export const PARALLEL_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['jobs', 'nodes', 'mix'],
  description: 'a structured parallel workload for time-sharing (communication-, I/O- and CPU-intensive jobs arriving as a Poisson process at an offered load)',
  properties: {
    $schema: { type: 'string' },
    jobs: { type: 'integer', minimum: 1, description: 'jobs to generate, a count' },
    nodes: { type: 'integer', minimum: 2, maximum: MAX_TIMESHARED_CPUS, description: 'nodes (single CPUs) of the cluster the load is computed for, a count' },
    maxTasks: { type: 'integer', minimum: 2, description: 'the largest job, in tasks (a power of two is drawn up to it; default min(nodes, 16))' },
    mix: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'the classes of jobs and their shares, e.g. {"comm": 1, "io": 1}: comm (5 ms compute per iteration, all-to-all or ring, 4 KiB messages), io (5 ms compute and 10 ms I/O, ring, 1 KiB), cpu (50 ms compute, tree, 1 KiB)',
      properties: { comm: share('communication-intensive'), io: share('I/O-intensive'), cpu: share('CPU-intensive') },
    },
    load: { type: 'number', exclusiveMinimum: 0, maximum: 10, default: 0.7, description: "offered load: the jobs' compute per second over the nodes" },
  },
} as const;

/** The schema errors of a parallel workload specification. */
export const parallelSpecDiagnostics = schemaChecker(PARALLEL_SPEC_SCHEMA, 'parallel workload specification');
