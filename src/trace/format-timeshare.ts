// The time-shared trace's report (`gridsweep trace --timeshare` without --json, and its --json object):
// the run's metrics in the words of Zhang and Sivasubramaniam 2004 (execution time, execution profile,
// loss of CPU resource, scheduling skewness, pace of progress, fairness across job classes).
import { profileShares, type TimeshareTrace } from './run-timeshare.js';

function n(x: number, digits = 3): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

const pct = (x: number): string => `${n(x * 100, 1)} %`;

/** Parameter values for JSON: Infinity (spin until descheduled, no boost) as the string "Infinity". */
function jsonParameters(p: Readonly<Record<string, number>>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [k, v] of Object.entries(p)) out[k] = Number.isFinite(v) ? v : String(v);
  return out;
}

export function formatTimeshareTrace(r: TimeshareTrace, workloadPath: string): string {
  const s = r.summary;
  const shares = profileShares(s.profile);
  const params = Object.entries(r.parameters).map(([k, v]) => `${k} ${Number.isFinite(v) ? v : 'Infinity'}`).join(', ');
  const classes = Object.keys(s.classMeanResponseS);
  return [
    `workload           ${workloadPath}: ${n(s.jobs, 0)} ${r.format === 'swf' ? 'rigid SWF' : 'structured'} jobs simulated, ${n(r.jobsSkipped, 0)} skipped`,
    `cluster            ${r.nodes} nodes × ${r.coresPerNode} cores = ${r.nodes * r.coresPerNode} CPUs, time-shared: ${r.strategy}`,
    `parameters         ${params}`,
    `makespan           ${n(s.makespanS)} s   ${n(s.events, 0)} events, ${n(s.messages, 0)} messages`,
    `response time      mean ${n(s.meanResponseS)} s (wait ${n(s.meanWaitS)} s + execution ${n(s.meanExecutionS)} s)`,
    `execution profile  compute ${pct(shares.computeS)}, spin ${pct(shares.spinS)}, context switch ${pct(shares.switchS)}, interrupt ${pct(shares.interruptS)}, idle ${pct(shares.idleS)}`,
    `                   (of ${n(r.nodes * r.coresPerNode, 0)} CPUs × makespan; per CPU in --json)`,
    `loss of CPU        ${pct(s.lossOfCpu)} of busy CPU time spun, switched or interrupted   loss of capacity ${pct(s.lossOfCapacity)}`,
    `skewness           ${n(s.schedulingSkewnessS * 1000)} ms mean wait for a descheduled sender (${n(s.skewedWaits, 0)} such waits)`,
    `pace of progress   mean ${n(r.pace.mean)} (CPU time per task per second of execution), CV ${n(r.pace.cv)}`,
    `fairness           response time CV ${n(s.responseCv)} over jobs${classes.length > 1 ? `, ${n(s.classResponseCv)} between classes` : ''}`,
    ...classes.map((c) => `  class ${c.padEnd(10)} mean response ${n(s.classMeanResponseS[c]!)} s, pace ${n(r.pace.classMean[c] ?? 0)}`),
  ].join('\n');
}

/** The --json object (the report reads it back: report/timeshare-profile.ts). */
export function timeshareJson(r: TimeshareTrace, workloadPath: string): object {
  const s = r.summary;
  return {
    workload: workloadPath,
    format: r.format,
    nodes: r.nodes,
    coresPerNode: r.coresPerNode,
    cpus: r.nodes * r.coresPerNode,
    timeshare: { strategy: r.strategy, parameters: jsonParameters(r.parameters) },
    jobsSkipped: r.jobsSkipped,
    metrics: {
      jobs: s.jobs,
      makespanS: s.makespanS,
      meanResponseS: s.meanResponseS,
      meanWaitS: s.meanWaitS,
      meanExecutionS: s.meanExecutionS,
      profile: s.profile,
      profileShares: profileShares(s.profile),
      perNode: s.perNode,
      lossOfCpu: s.lossOfCpu,
      lossOfCapacity: s.lossOfCapacity,
      schedulingSkewnessS: s.schedulingSkewnessS,
      skewedWaits: s.skewedWaits,
      pace: r.pace,
      responseCv: s.responseCv,
      classMeanResponseS: s.classMeanResponseS,
      classResponseCv: s.classResponseCv,
      events: s.events,
      messages: s.messages,
    },
    violations: r.violations,
  };
}
