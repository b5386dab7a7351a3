// `gridsweep trace WORKLOAD.swf`: simulate an SWF workload on one batch cluster under one policy and print
// the job metrics — trace mode, the job of AccaSim and ClusterSchedSim.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, numberOption, stringOption } from '../args.js';
import { formatTraceRun } from '../../trace/format-trace.js';
import { listBatchPolicies } from '../../batch/policies/registry.js';
import { ClusterSetupError } from '../../batch/cluster-setup.js';
import { DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S } from '../../batch/job-metrics.js';
import { MAX_CORES_PER_NODE, MAX_NODES } from '../../batch/cluster-limits.js';
import { ClusterSizeError, runTrace } from '../../trace/run-trace.js';
import { componentHelp } from './cluster-components-help.js';
import { expectFileKind, sniffFileKind } from '../../formats/file-kind.js';
import { listTimeshareStrategies } from '../../batch/timeshare/registry.js';
import { runTimeshareTrace } from '../../trace/run-timeshare.js';
import { formatTimeshareTrace, timeshareJson } from '../../trace/format-timeshare.js';
import { optionGiven } from '../args.js';
import type { CommandArgs } from '../command.js';
import { readTimeshareFlags, timeshareFlagNames, timeshareOptionSpecs } from '../timeshare-flags.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

/** Space-sharing options that mean nothing to a time-shared run. */
const SPACE_SHARING_ONLY = ['policy', 'machine', 'allocator', 'allocation-log', 'schedule', 'bounded-slowdown-threshold'] as const;

/** `trace WORKLOAD --timeshare STRATEGY`: the time-shared run (src/trace/run-timeshare.ts). */
function runTimeshared(args: CommandArgs, strategy: string, size: (name: string) => number | undefined): number {
  const names = listTimeshareStrategies().map((s) => s.name);
  if (!names.includes(strategy)) throw new UsageError(`unknown --timeshare '${strategy}'; expected one of ${names.join(', ')}`);
  const misplaced = SPACE_SHARING_ONLY.filter((o) => optionGiven(args, o));
  if (misplaced.length > 0) throw new UsageError(`${misplaced.map((o) => `--${o}`).join(', ')} belong${misplaced.length === 1 ? 's' : ''} to space sharing, not to --timeshare (a time-shared cluster has no batch policy, allocator or machine shape); leave ${misplaced.length === 1 ? 'it' : 'them'} out`);
  const parameters = readTimeshareFlags(args, strategy);
  const workloadPath = args.positionals[0]!;
  expectFileKind(workloadPath, ['swf', 'parallel-workload'], 'trace --timeshare', 'an SWF or parallel workload');
  const format = sniffFileKind(workloadPath) === 'parallel-workload' || workloadPath.endsWith('.pwl') ? 'parallel' : 'swf';
  if (format === 'swf' && !optionGiven(args, 'slice')) {
    console.error("note: an SWF trace's jobs run for minutes to days, and every CPU is woken at each time slice (default 0.1 s): give a slice of seconds (e.g. --slice 60, as batch gang schedulers use) for a long trace");
  }
  let run;
  try {
    run = runTimeshareTrace({ workloadPath, format, nodes: size('nodes'), coresPerNode: size('cores-per-node'), strategy, parameters, check: flagOption(args, 'check') });
  } catch (err) {
    if (err instanceof ClusterSizeError) throw new UsageError(err.message);
    if (err instanceof Error && err.message.startsWith(`strategy ${strategy}`)) throw new UsageError(`--timeshare ${err.message.slice('strategy '.length)}`);
    throw err;
  }
  for (const w of run.warnings) console.error(`warning: ${w}`);
  if (flagOption(args, 'json')) console.log(JSON.stringify(timeshareJson(run, workloadPath), null, 2));
  else console.log(formatTimeshareTrace(run, workloadPath));
  for (const v of run.violations) console.error(`violation: ${v}`);
  if (flagOption(args, 'check') && run.violations.length === 0) console.error(`checked ${run.summary.jobs.toLocaleString('en-US')} jobs: no violation (MPL, gang rows, messages before progress, compute received, profiles)`);
  return run.violations.length > 0 ? 1 : 0;
}

function choice(args: Parameters<Command['run']>[0], name: string, valid: readonly string[], fallback: string): string {
  const v = stringOption(args, name) ?? fallback;
  if (!valid.includes(v)) throw new UsageError(`unknown --${name} '${v}'; expected one of ${valid.join(', ')}`);
  return v;
}

const command: Command = {
  name: 'trace',
  summary: COMMAND_SUMMARIES.trace,
  usage: 'gridsweep trace WORKLOAD.swf [--policy P] [--machine M] [--allocator A] [--nodes N --cores-per-node C] [--json] [--schedule FILE.swf] [--allocation-log FILE] [--check] | gridsweep trace WORKLOAD.pwl|WORKLOAD.swf --timeshare STRATEGY [--nodes N --cores-per-node C] [--mpl N --slice S ...] [--json] [--check]',
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
    '',
    'Time-sharing (--timeshare STRATEGY, Zhang and Sivasubramaniam 2004): every node time-shares up to MPL',
    'tasks of different jobs, and the strategy decides who runs when. The workload is a parallel workload',
    '(.pwl: structured jobs with iterations of compute, I/O and messages; `gridsweep generate parallel`) or',
    'an SWF trace (rigid jobs: one task per core, pure computation). The cluster is --nodes × --cores-per-node',
    'single CPUs (a .pwl needs --nodes; --cores-per-node defaults to 1, or to the SWF header\'s node size).',
    'Strategies:',
    ...listTimeshareStrategies().map((s) => `  ${s.name.padEnd(11)} ${s.help}`),
    'Each strategy reads the parameter flags marked with its name in the options above; the others are refused.',
    '--json prints the metrics, which `gridsweep report A.json B.json -o P.html` turns into execution profiles.',
    'Example: gridsweep trace W.pwl --nodes 32 --timeshare gang --mpl 4 --slice 0.1 --check',
  ].join('\n'),
  options: {
    policy: { type: 'string', description: 'the batch policy (default fcfs)', valueName: 'P' },
    machine: { type: 'string', description: 'bag (default), mesh:XxY[xZ] or torus:XxY[xZ]', valueName: 'M' },
    allocator: { type: 'string', description: 'the allocator (default first-fit on the bag, linear:row-major:free-list on a mesh)', valueName: 'A' },
    'allocation-log': { type: 'string', description: 'on a mesh or torus, write each job\'s nodes (for `gridsweep map`)', valueName: 'FILE' },
    nodes: { type: 'string', description: `nodes in the cluster (default: the header's MaxNodes; at most ${MAX_NODES}); each keeps the header's node size unless --cores-per-node`, valueName: 'N' },
    'cores-per-node': { type: 'string', description: `cores per node (default: the header's MaxProcs / MaxNodes; on a mesh MaxProcs / its nodes, or 1; at most ${MAX_CORES_PER_NODE})`, valueName: 'C' },
    'bounded-slowdown-threshold': { type: 'string', description: `the run time below which bounded slowdown counts a job as this long (default ${DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S} s)`, valueName: 'S' },
    json: { type: 'boolean', description: 'print one JSON object instead of the report' },
    schedule: { type: 'string', description: 'write the simulated schedule as SWF (wait filled in, jobs in the order they ended)', valueName: 'FILE' },
    check: { type: 'boolean', description: 'check the schedule as it is made (cores, order, reservations; time-shared: MPL, gang rows, messages); exit 1 on a violation, else say how many jobs it checked' },
    timeshare: { type: 'string', description: `time-share the cluster under this strategy: ${listTimeshareStrategies().map((s) => s.name).join(', ')}`, valueName: 'STRATEGY' },
    ...timeshareOptionSpecs(),
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const sizeOf = (name: string): number | undefined => (stringOption(args, name) === undefined ? undefined : numberOption(args, name, 0, { min: 1, integer: true }));
    const timeshare = stringOption(args, 'timeshare');
    if (timeshare !== undefined) return runTimeshared(args, timeshare, sizeOf);
    const strayFlags = timeshareFlagNames().filter((f) => optionGiven(args, f));
    if (strayFlags.length > 0) throw new UsageError(`${strayFlags.map((f) => `--${f}`).join(', ')} go${strayFlags.length === 1 ? 'es' : ''} with --timeshare STRATEGY (time-sharing); without it the cluster is space-shared`);
    const policy = choice(args, 'policy', listBatchPolicies().map((p) => p.name), 'fcfs');
    const allocator = stringOption(args, 'allocator');
    const machine = stringOption(args, 'machine');
    const nodes = sizeOf('nodes');
    const coresPerNode = sizeOf('cores-per-node');
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
      if (err instanceof ClusterSizeError || err instanceof ClusterSetupError) throw new UsageError(err.message);
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
