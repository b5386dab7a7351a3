// Demand-based coscheduling (rescheduling on message arrival): a message for a waiting task that is not on
// its CPU raises an interrupt that moves the task to the head of the queue and preempts the running task
// in its favour (the preempted one goes back just behind it). Waiting tasks spin (threshold: Infinity by
// default, i.e. until their slice ends; a finite one makes it spin-block with demand rescheduling).
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const demand: TimeshareStrategy = {
  name: 'demand',
  help: 'demand-based coscheduling: a message for a descheduled waiting task preempts in its favour',
  parameters: [...COMMON_PARAMETERS, { name: 'spin', help: 'busy-wait threshold before blocking, seconds (Infinity: spin until descheduled)', defaultValue: Infinity, min: 0 }],
  configure(values) {
    const v = resolveParameters('demand', this.parameters, values);
    return { mode: 'dynamic', ...commonConfig('demand', v), spinThresholdS: v['spin']!, demand: true, boostPeriodS: Infinity };
  },
};
