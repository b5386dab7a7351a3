// Periodic boost: every period, a node whose running task is only busy-waiting gives the CPU to the first
// ready task (in queue order) that has compute to do — one whose messages have come. Waiting tasks spin
// (threshold: Infinity by default).
import { NODE_SCHEDULER_PARAMETERS, nodeSchedulerConfig } from '../node-scheduler.js';
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const boost: TimeshareStrategy = {
  name: 'boost',
  help: 'periodic boost: every period a spinning task gives way to a ready task whose messages have come',
  parameters: [
    ...COMMON_PARAMETERS,
    { name: 'boost-period', help: 'seconds between two boosts on a node', defaultValue: 0.01, min: 0, exclusiveMin: true },
    { name: 'spin', help: 'busy-wait threshold before blocking, seconds (Infinity: spin until descheduled)', defaultValue: Infinity, min: 0 },
    ...NODE_SCHEDULER_PARAMETERS,
  ],
  configure(values) {
    const v = resolveParameters('boost', this.parameters, values);
    return { mode: 'dynamic', ...commonConfig('boost', v), spinThresholdS: v['spin']!, demand: false, boostPeriodS: v['boost-period']!, alternate: false, ...nodeSchedulerConfig('boost', v) };
  },
};
