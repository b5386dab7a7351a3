// What `gridsweep probe` reads of a Slurm cluster (backends/slurm/slurm-probe.ts), on output captured from
// the tests' real Slurm (Debian's 22.05.8: one node of 4 CPUs, partitions "main" (default) and "urgent";
// time limits and node states set with scontrol update before each capture), plus made-up lines where the
// test Slurm cannot show it (several nodes of different sizes), marked as such.
import { describe, expect, it } from 'vitest';
import { batchFactsOf, nodeCanRunJobs, parseSinfo, policyOfScheduler, schedulerTypeOf, slurmTimeS } from '../../backends/slurm/slurm-probe.js';

// `sinfo --noheader --Node --format=%N|%P|%c|%l|%a|%T`, captured:
const TWO_PARTITIONS = 'gsz4bm3q|main*|4|infinite|up|idle\ngsz4bm3q|urgent|4|infinite|up|idle\n';
const TIME_LIMITS = 'gsz4bm3q|main*|4|1-04:30:00|up|idle\ngsz4bm3q|urgent|4|45:00|up|idle\n';
const DRAINED = 'gsz4bm3q|main*|4|1-04:30:00|up|drained\ngsz4bm3q|urgent|4|45:00|up|drained\n';
const MIXED = 'gsz4bm3q|main*|4|1-04:30:00|up|mixed\ngsz4bm3q|urgent|4|45:00|up|mixed\n';
// `scontrol show config`, captured (an excerpt around the scheduler; the real one has ~200 lines)
const CONFIG = [
  'Configuration data as of 2026-11-27T14:19:29',
  'AccountingStorageBackupHost = (null)',
  'RoutePlugin             = route/default',
  'SchedulerParameters     = (null)',
  'SchedulerTimeSlice      = 30 sec',
  'SchedulerType           = sched/backfill',
  'SelectType              = select/cons_tres',
  'SelectTypeParameters    = CR_CORE',
].join('\n');

describe("reading a Slurm cluster for the prober", () => {
  it('parses sinfo: the node, its partitions (the default marked), CPUs, time limit, states', () => {
    expect(parseSinfo(TWO_PARTITIONS)).toEqual([
      { node: 'gsz4bm3q', partition: 'main', isDefault: true, cpus: 4, timeLimitS: undefined, partitionState: 'up', state: 'idle' },
      { node: 'gsz4bm3q', partition: 'urgent', isDefault: false, cpus: 4, timeLimitS: undefined, partitionState: 'up', state: 'idle' },
    ]);
    // 1-04:30:00 is 1 day 4 h 30 min = 86400 + 16200 = 102600 s; sinfo prints 45 minutes as "45:00" (mm:ss) = 2700 s
    expect(parseSinfo(TIME_LIMITS).map((n) => n.timeLimitS)).toEqual([102600, 2700]);
  });

  it('reads Slurm times in every form sinfo prints', () => {
    expect(['infinite', 'UNLIMITED', 'n/a'].map(slurmTimeS)).toEqual([undefined, undefined, undefined]);
    // 4:00:00 = 4 h; 2-00:00:00 = 2 days; 30:00 = 30 min; 90 = 90 min
    expect(['4:00:00', '2-00:00:00', '30:00', '90'].map(slurmTimeS)).toEqual([14400, 172800, 1800, 5400]);
    expect(() => slurmTimeS('soon')).toThrow(/not a Slurm time/);
  });

  it('a line of another shape is an error naming it', () => {
    expect(() => parseSinfo('gsz4bm3q|main*|4|infinite|up\n')).toThrow(/sinfo line 1 is not/);
    expect(() => parseSinfo('gsz4bm3q|main*|many|infinite|up|idle\n')).toThrow(/sinfo line 1/);
  });

  it('the scheduler: sched/backfill is conservative backfilling, sched/builtin FCFS', () => {
    expect(schedulerTypeOf(CONFIG)).toBe('sched/backfill');
    expect(policyOfScheduler('sched/backfill').policy).toBe('conservative');
    expect(policyOfScheduler('sched/builtin').policy).toBe('fcfs');
    expect(policyOfScheduler(undefined)).toEqual({ policy: 'conservative', from: expect.stringMatching(/default scheduler, sched\/backfill, assumed/) });
  });

  it('describes the default partition (or the one named) of the captured cluster', () => {
    const facts = batchFactsOf(parseSinfo(TIME_LIMITS), undefined, schedulerTypeOf(CONFIG));
    expect(facts).toEqual({ partition: 'main', nodes: 1, coresPerNode: 4, nodesUnavailable: 0, timeLimitS: 102600, policy: 'conservative', policyFrom: expect.stringContaining('sched/backfill'), notes: [] });
    expect(batchFactsOf(parseSinfo(TIME_LIMITS), 'urgent', 'sched/backfill')).toMatchObject({ partition: 'urgent', timeLimitS: 2700 });
    expect(batchFactsOf(parseSinfo(TWO_PARTITIONS), undefined, 'sched/backfill')).not.toHaveProperty('timeLimitS');
    // a node running a job (mixed) still runs jobs
    expect(batchFactsOf(parseSinfo(MIXED), undefined, 'sched/backfill')).toMatchObject({ nodes: 1, nodesUnavailable: 0 });
    expect(() => batchFactsOf(parseSinfo(TIME_LIMITS), 'gpu', undefined)).toThrow(/no partition "gpu" \(partitions: main, urgent\)/);
  });

  it('a partition whose only node is drained cannot be described', () => {
    expect(() => batchFactsOf(parseSinfo(DRAINED), undefined, 'sched/backfill')).toThrow(/partition "main" has no node that can run jobs now \(1 drained\)/);
  });

  it('node states: running, idle or powered down count; not responding, down, drained, draining do not', () => {
    expect(['idle', 'mixed', 'allocated', 'completing', 'idle~', 'mixed-', 'IDLE'].every(nodeCanRunJobs)).toBe(true);
    expect(['idle*', 'down*', 'down', 'drained', 'draining', 'fail', 'reserved', 'maint', 'unknown', 'inval'].some(nodeCanRunJobs)).toBe(false);
  });

  it('(made up) nodes of several sizes, one down: the usable ones, at the fewest CPUs, with notes', () => {
    // Three usable nodes: two of 8 CPUs, one of 16; n4 does not respond. Described as 3 nodes of 8.
    const text = ['n1|batch*|8|2-00:00:00|up|idle', 'n2|batch*|8|2-00:00:00|up|allocated', 'n3|batch*|16|2-00:00:00|up|mixed', 'n4|batch*|16|2-00:00:00|up|down*'].join('\n');
    const facts = batchFactsOf(parseSinfo(text), undefined, 'sched/builtin');
    expect(facts).toMatchObject({ partition: 'batch', nodes: 3, coresPerNode: 8, nodesUnavailable: 1, timeLimitS: 172800, policy: 'fcfs' });
    expect(facts.notes).toEqual(['its nodes differ (2 of 8 CPUs, 1 of 16 CPUs): described as 3 nodes of 8 CPUs, the fewest', '1 node(s) left out, unable to run jobs now: 1 down*']);
  });
});
