// Demand-based coscheduling (rescheduling on message arrival): a message for a waiting task that is not on
// its CPU raises an interrupt that moves the task to the head of the queue and preempts the running task
// in its favour (the preempted one goes back just behind it). A waiting task spins up to a threshold and
// then blocks, as under spin-block (the paper's rescheduling on message arrival wakes tasks blocked that
// way); with spin Infinity it spins until descheduled (pure demand-based coscheduling, which thrashes on
// all-to-all jobs: every message of a partial set preempts).
import { SPIN_PARAMETER } from './spin-block.js';
import { NODE_SCHEDULER_PARAMETERS, nodeSchedulerConfig } from '../node-scheduler.js';
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const demand: TimeshareStrategy = {
  name: 'demand',
  help: 'demand-based coscheduling: a message for a descheduled waiting task preempts in its favour',
  parameters: [...COMMON_PARAMETERS, { ...SPIN_PARAMETER, help: 'busy-wait threshold before blocking, seconds (Infinity: spin until descheduled)' }, ...NODE_SCHEDULER_PARAMETERS],
  configure(values) {
    const v = resolveParameters('demand', this.parameters, values);
    return { mode: 'dynamic', ...commonConfig('demand', v), spinThresholdS: v['spin']!, demand: true, boostPeriodS: Infinity, alternate: false, ...nodeSchedulerConfig('demand', v) };
  },
};
