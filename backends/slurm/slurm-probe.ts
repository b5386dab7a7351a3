// What a Slurm cluster says of itself, for `gridsweep probe` (the transport's probeBatch hook): `sinfo`, one
// line per node of each partition, gives the partition's nodes, their CPUs and state, and its time limit;
// `scontrol show config` gives the scheduler (sched/backfill or sched/builtin), which picks the simulated
// batch policy. Each command runs where the cluster's Slurm commands run (slurm-access.ts) within the
// grid file's command deadline. The parsers are pure, for tests on captured output.
import type { BatchClusterFacts } from '../transport/registry.js';
import { withDeadline } from '../transport/deadline.js';
import type { SlurmAccess } from './slurm-access.js';

/** `sinfo` with one line per node and partition: name|partition (a "*" after the default)|CPUs|time limit|partition state|node state. */
export const SINFO_ARGS = ['--noheader', '--Node', '--format=%N|%P|%c|%l|%a|%T'] as const;

export interface SinfoNode {
  readonly node: string;
  readonly partition: string;
  readonly isDefault: boolean;
  readonly cpus: number;
  /** The partition's time limit, seconds; undefined for none ("infinite"). */
  readonly timeLimitS: number | undefined;
  /** The partition's state: up, down, drain, inact. */
  readonly partitionState: string;
  /** The node's state, extended form, with Slurm's suffixes (idle, mixed, down*, drained, idle~...). */
  readonly state: string;
}

/**
 * A Slurm time as sinfo prints a time limit: "infinite", "UNLIMITED" or "n/a" (no limit: undefined), or
 * [days-]hours:minutes:seconds, minutes:seconds, or minutes. Throws on anything else.
 */
export function slurmTimeS(text: string): number | undefined {
  const t = text.trim();
  if (/^(infinite|unlimited|n\/a|none)$/i.test(t)) return undefined;
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(t);
  if (!m) throw new Error(`"${t}" is not a Slurm time ([days-]hours:minutes:seconds)`);
  const [days, a, b, c] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? undefined : Number(x)));
  // d-h:m:s, d-h:m, d-h; h:m:s; m:s; m
  if (days !== undefined) return days * 86400 + a! * 3600 + (b ?? 0) * 60 + (c ?? 0);
  if (c !== undefined) return a! * 3600 + b! * 60 + c;
  if (b !== undefined) return a! * 60 + b;
  return a! * 60;
}

/** Parses the output of `sinfo SINFO_ARGS`; throws naming the line that does not parse. */
export function parseSinfo(text: string): SinfoNode[] {
  const nodes: SinfoNode[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const f = line.split('|');
    const cpus = Number(f[2]);
    if (f.length !== 6 || !f[0] || !f[1] || !Number.isInteger(cpus) || cpus < 1) {
      throw new Error(`sinfo line ${i + 1} is not "node|partition|cpus|time limit|partition state|node state": ${line}`);
    }
    const isDefault = f[1].endsWith('*');
    nodes.push({ node: f[0], partition: isDefault ? f[1].slice(0, -1) : f[1], isDefault, cpus, timeLimitS: slurmTimeS(f[3]!), partitionState: f[4]!, state: f[5]! });
  });
  return nodes;
}

/**
 * Whether a node in this state can run a job now or soon: idle, mixed, allocated, completing or planned,
 * powered down (~, it is powered up for a job) included; not if it does not respond (*), nor down, drained,
 * draining, failed, reserved, in maintenance, or any state not listed.
 */
export function nodeCanRunJobs(state: string): boolean {
  const m = /^([a-z_]+)([*~#!%$@^-]*)$/.exec(state.toLowerCase());
  if (!m) return false;
  return ['idle', 'mixed', 'allocated', 'completing', 'planned'].includes(m[1]!) && !m[2]!.includes('*');
}

/** The scheduler line of `scontrol show config` ("SchedulerType = sched/backfill"), if there is one. */
export function schedulerTypeOf(config: string): string | undefined {
  return /^\s*SchedulerType\s*=\s*(\S+)/m.exec(config)?.[1];
}

/**
 * The simulated policy closest to a Slurm scheduler. sched/backfill starts a lower-priority job early only
 * when no higher-priority job's expected start is delayed: conservative backfilling (every waiting job
 * keeps its place). sched/builtin starts jobs strictly in priority order: FCFS for jobs of equal priority.
 */
export function policyOfScheduler(schedulerType: string | undefined): { policy: string; from: string } {
  if (schedulerType === 'sched/builtin') return { policy: 'fcfs', from: 'SchedulerType sched/builtin (strict priority order)' };
  if (schedulerType === 'sched/backfill') return { policy: 'conservative', from: 'SchedulerType sched/backfill (no waiting job delayed by a backfilled one)' };
  return {
    policy: 'conservative',
    from: schedulerType === undefined ? "Slurm's default scheduler, sched/backfill, assumed (scontrol show config did not say)" : `SchedulerType ${schedulerType} is not known here: sched/backfill assumed`,
  };
}

/**
 * The facts of one partition (`partition`, or the default one) from sinfo's nodes and the scheduler type.
 * Throws when the partition is not there or has no node that can run jobs now.
 */
export function batchFactsOf(nodes: readonly SinfoNode[], partition: string | undefined, schedulerType: string | undefined): BatchClusterFacts {
  const partitions = [...new Set(nodes.map((n) => n.partition))];
  const name = partition ?? nodes.find((n) => n.isDefault)?.partition ?? (partitions.length === 1 ? partitions[0] : undefined);
  if (name === undefined) {
    throw new Error(`Slurm has no default partition (partitions: ${partitions.join(', ') || 'none'}): name one with "partition" in the real grid file`);
  }
  const mine = nodes.filter((n) => n.partition === name);
  if (mine.length === 0) throw new Error(`Slurm has no partition "${name}" (partitions: ${partitions.join(', ') || 'none'}): fix "partition" in the real grid file`);
  const usable = mine.filter((n) => nodeCanRunJobs(n.state));
  const unusable = mine.filter((n) => !nodeCanRunJobs(n.state));
  const states = [...new Set(unusable.map((n) => n.state))].map((s) => `${unusable.filter((n) => n.state === s).length} ${s}`).join(', ');
  if (usable.length === 0) throw new Error(`Slurm partition "${name}" has no node that can run jobs now (${states}): nothing to describe`);
  const sizes = [...new Set(usable.map((n) => n.cpus))].sort((a, b) => a - b);
  const coresPerNode = sizes[0]!;
  const notes: string[] = [];
  if (sizes.length > 1) {
    const counts = sizes.map((c) => `${usable.filter((n) => n.cpus === c).length} of ${c} CPUs`).join(', ');
    notes.push(`its nodes differ (${counts}): described as ${usable.length} nodes of ${coresPerNode} CPUs, the fewest`);
  }
  if (unusable.length > 0) notes.push(`${unusable.length} node(s) left out, unable to run jobs now: ${states}`);
  const partitionState = mine[0]!.partitionState;
  if (partitionState.toLowerCase() !== 'up') notes.push(`the partition is ${partitionState}: it starts no job now`);
  const { policy, from } = policyOfScheduler(schedulerType);
  const timeLimitS = mine[0]!.timeLimitS;
  return { partition: name, nodes: usable.length, coresPerNode, nodesUnavailable: unusable.length, ...(timeLimitS !== undefined ? { timeLimitS } : {}), policy, policyFrom: from, notes };
}

/** Asks the cluster's Slurm: sinfo (required), then scontrol show config (its scheduler; optional). */
export async function probeSlurm(access: SlurmAccess, partition: string | undefined, deadlineS: number): Promise<BatchClusterFacts> {
  const run = async (argv: readonly string[]): Promise<string> => {
    const r = await withDeadline(access.run(argv), deadlineS, `${argv[0]}: no answer within ${deadlineS} s`, () => undefined);
    if (r.code !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr.trim() || `exit ${r.code ?? r.signal}`}`);
    return r.stdout;
  };
  const nodes = parseSinfo(await run(['sinfo', ...SINFO_ARGS, ...(partition !== undefined ? [`--partition=${partition}`] : [])]));
  const schedulerType = await run(['scontrol', 'show', 'config']).then(schedulerTypeOf, () => undefined);
  return batchFactsOf(nodes, partition, schedulerType);
}
