// `gridsweep trace WORKLOAD.swf`: simulate an SWF workload on one batch cluster under one policy and print
// the job metrics — trace mode, the job of AccaSim and ClusterSchedSim.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, numberOption, stringOption } from '../args.js';
import { formatTraceRun } from '../../batch/format-trace.js';
import { listBatchPolicies } from '../../batch/policies/registry.js';
import { ClusterSetupError } from '../../batch/cluster-setup.js';
import { DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S } from '../../batch/job-metrics.js';
import { ClusterSizeUnknown, runTrace } from '../../batch/run-trace.js';
import { componentHelp } from './cluster-components-help.js';
import { expectFileKind } from '../../formats/file-kind.js';

function choice(args: Parameters<Command['run']>[0], name: string, valid: readonly string[], fallback: string): string {
  const v = stringOption(args, name) ?? fallback;
  if (!valid.includes(v)) throw new UsageError(`unknown --${name} '${v}'; expected one of ${valid.join(', ')}`);
  return v;
}

const command: Command = {
  name: 'trace',
  summary: 'simulate an SWF workload on one batch cluster under a batch policy and print the job metrics',
  usage: 'gridsweep trace WORKLOAD.swf [--policy P] [--machine M] [--allocator A] [--nodes N --cores-per-node C] [--json] [--schedule FILE.swf] [--allocation-log FILE] [--check]',
  details: [
    'The workload is read as a stream (Standard Workload Format, 18 fields per job, -1 = unknown); the',
    'cluster size defaults to the header (MaxNodes nodes of MaxProcs / MaxNodes cores; --nodes alone changes',
    'the count, not the node size). Jobs asking for more cores than',
    'the cluster has, or with an unknown run time or processor count, are skipped and counted; so are (as',
    'Bunde and Leung 2015 clean archive logs) partial records (status 2-4), jobs cancelled before starting',
    'and jobs of zero processors. A .swf.gz file is read as a stream too. A policy sees requested times;',
    'the job runs its actual time and is killed at its requested time if longer.',
    'On a mesh or torus (--machine mesh:8x8x4) a job holds whole nodes, its allocation quality is measured',
    '(pairwise hops, pieces, bounding box, fragmentation), and --allocation-log writes every job\'s nodes for',
    '`gridsweep map`. Contiguous allocators may leave a job waiting although enough nodes are free; EASY',
    'then checks each backfill with the allocator, and conservative backfilling is refused.',
    '',
    ...componentHelp(),
    '',
    'Example: gridsweep trace W.swf --machine mesh:8x8x4 --policy easy --allocator gen-alg --allocation-log W.alloc',
    'Generate a workload with `gridsweep generate swf SPEC.json -o W.swf`.',
  ].join('\n'),
  options: {
    policy: { type: 'string', description: 'the batch policy (default fcfs)', valueName: 'P' },
    machine: { type: 'string', description: 'bag (default), mesh:XxY[xZ] or torus:XxY[xZ]', valueName: 'M' },
    allocator: { type: 'string', description: 'the allocator (default first-fit on the bag, linear:row-major:free-list on a mesh)', valueName: 'A' },
    'allocation-log': { type: 'string', description: 'on a mesh or torus, write each job\'s nodes (for `gridsweep map`)', valueName: 'FILE' },
    nodes: { type: 'string', description: 'nodes in the cluster (default: the header\'s MaxNodes); each keeps the header\'s node size unless --cores-per-node', valueName: 'N' },
    'cores-per-node': { type: 'string', description: 'cores per node (default: the header\'s MaxProcs / MaxNodes; on a mesh MaxProcs / its nodes, or 1)', valueName: 'C' },
    'bounded-slowdown-threshold': { type: 'string', description: `the run time below which bounded slowdown counts a job as this long (default ${DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S} s)`, valueName: 'S' },
    json: { type: 'boolean', description: 'print one JSON object instead of the report' },
    schedule: { type: 'string', description: 'write the simulated schedule as SWF (wait filled in, jobs in the order they ended)', valueName: 'FILE' },
    check: { type: 'boolean', description: 'check the schedule as it is made (cores, order, reservations); exit 1 on a violation, else say how many jobs it checked' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const policy = choice(args, 'policy', listBatchPolicies().map((p) => p.name), 'fcfs');
    const allocator = stringOption(args, 'allocator');
    const machine = stringOption(args, 'machine');
    const size = (name: string): number | undefined => (stringOption(args, name) === undefined ? undefined : numberOption(args, name, 0, { min: 1, integer: true }));
    const nodes = size('nodes');
    const coresPerNode = size('cores-per-node');
    const workloadPath = args.positionals[0]!;
    expectFileKind(workloadPath, ['swf'], 'trace', 'an SWF workload');
    let run;
    try {
      run = runTrace({
        workloadPath,
        machine,
        nodes,
        coresPerNode,
        policy,
        allocator,
        allocationLog: stringOption(args, 'allocation-log'),
        boundedSlowdownThresholdS: numberOption(args, 'bounded-slowdown-threshold', DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S, { min: 0 }),
        scheduleOut: stringOption(args, 'schedule'),
        check: flagOption(args, 'check'),
      });
    } catch (err) {
      if (err instanceof ClusterSizeUnknown || err instanceof ClusterSetupError) throw new UsageError(err.message);
      throw err;
    }
    for (const w of run.warnings) console.error(`warning: ${w}`);
    if (flagOption(args, 'json')) console.log(JSON.stringify({ workload: workloadPath, ...(run.machine === 'bag' ? {} : { machine: run.machine }), nodes: run.nodes, coresPerNode: run.coresPerNode, policy: run.policy, allocator: run.allocator, jobsSkipped: run.jobsSkipped, header: run.header.fields, events: run.events, metrics: run.metrics, violations: run.violations }, null, 2));
    else console.log(formatTraceRun(run, workloadPath));
    for (const v of run.violations) console.error(`violation: ${v}`);
    if (flagOption(args, 'check') && run.violations.length === 0) console.error(`checked ${run.metrics.jobs.toLocaleString('en-US')} jobs: no violation (cores, order, reservations)`);
    return run.violations.length > 0 ? 1 : 0;
  },
};

export default command;
