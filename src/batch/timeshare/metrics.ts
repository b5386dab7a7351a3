// What a time-sharing run measured (Zhang and Sivasubramaniam 2004, sections 2.2 and 5.1): per job its
// response time (end − submission), execution time (end − start) and wait; per node the execution
// profile; the loss of CPU resource (the share of busy CPU time spent spinning, switching or in
// interrupts rather than computing); the loss of capacity (free slots while jobs wait); the scheduling
// skewness (how long waits for a descheduled sender last until it is scheduled); per job the pace of
// progress (CPU time received per task over its execution, the window being the whole execution); and
// fairness, as the coefficient of variation (population standard
// deviation / mean) of response times — over all jobs, and between job classes' mean response times.
import type { JobOutcome, TimeshareRun } from './engine.js';
import type { ExecutionProfile } from './node.js';

export interface JobTimes {
  readonly id: number;
  readonly responseS: number;
  readonly executionS: number;
  readonly waitS: number;
  /** Pace of progress over the job's whole execution: work / (tasks × execution time), 1 when never slowed. */
  readonly pace: number;
}

export interface TimeshareSummary {
  readonly jobs: number;
  readonly makespanS: number;
  readonly meanResponseS: number;
  readonly meanExecutionS: number;
  readonly meanWaitS: number;
  readonly perJob: JobTimes[];
  /** Summed over nodes. */
  readonly profile: ExecutionProfile;
  readonly perNode: ExecutionProfile[];
  /** (spin + switch + interrupt) / (compute + spin + switch + interrupt); 0 when the CPUs never ran. */
  readonly lossOfCpu: number;
  /**
   * Loss of capacity as the paper defines it: Σ (free MPL slots × time while some job waits) / (makespan ×
   * nodes). Slots, not nodes, are counted, so it can exceed 1 when MPL > 1.
   */
  readonly lossOfCapacity: number;
  /**
   * Scheduling skewness (degree of coscheduling): the mean time from a task reaching its receive on its
   * CPU while a sender was not scheduled (it still had compute to do, off its CPU) until that sender was
   * scheduled; 0 when no wait found its sender descheduled. skewedWaits counts such (wait, sender) pairs.
   */
  readonly schedulingSkewnessS: number;
  readonly skewedWaits: number;
  /** Coefficient of variation of the jobs' response times. */
  readonly responseCv: number;
  /** Mean response time per job class (jobs without a class are "unclassed"). */
  readonly classMeanResponseS: Record<string, number>;
  /** Coefficient of variation of the classes' mean response times (0 with one class). */
  readonly classResponseCv: number;
  readonly events: number;
  readonly messages: number;
}

export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance) / mean;
}

function times(j: JobOutcome): JobTimes {
  const executionS = j.endS - j.startS;
  return { id: j.id, responseS: j.endS - j.submitS, executionS, waitS: j.startS - j.submitS, pace: executionS === 0 ? 1 : j.workS / (j.tasks * executionS) };
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function summarizeTimeshare(run: TimeshareRun): TimeshareSummary {
  const perJob = run.jobs.map(times);
  const profile: ExecutionProfile = { computeS: 0, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 };
  for (const p of run.profiles) {
    profile.computeS += p.computeS;
    profile.spinS += p.spinS;
    profile.switchS += p.switchS;
    profile.interruptS += p.interruptS;
    profile.idleS += p.idleS;
  }
  const lost = profile.spinS + profile.switchS + profile.interruptS;
  const busy = lost + profile.computeS;
  const byClass = new Map<string, number[]>();
  run.jobs.forEach((j, i) => {
    const c = j.jobClass ?? 'unclassed';
    const list = byClass.get(c) ?? [];
    list.push(perJob[i]!.responseS);
    byClass.set(c, list);
  });
  const classMeanResponseS: Record<string, number> = {};
  for (const [c, list] of [...byClass].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) classMeanResponseS[c] = mean(list);
  return {
    jobs: perJob.length,
    makespanS: run.makespanS,
    meanResponseS: mean(perJob.map((j) => j.responseS)),
    meanExecutionS: mean(perJob.map((j) => j.executionS)),
    meanWaitS: mean(perJob.map((j) => j.waitS)),
    perJob,
    profile,
    perNode: run.profiles,
    lossOfCpu: busy === 0 ? 0 : lost / busy,
    lossOfCapacity: run.makespanS === 0 ? 0 : run.idleSlotWhileWaitingS / (run.makespanS * run.profiles.length),
    schedulingSkewnessS: run.skewedWaits === 0 ? 0 : run.skewTotalS / run.skewedWaits,
    skewedWaits: run.skewedWaits,
    responseCv: coefficientOfVariation(perJob.map((j) => j.responseS)),
    classMeanResponseS,
    classResponseCv: coefficientOfVariation(Object.values(classMeanResponseS)),
    events: run.events,
    messages: run.messages,
  };
}
