// Spin-block (rescheduling when no message came within a time): a waiting task busy-waits on the CPU for
// up to a threshold of spinning, then blocks; the message that completes its wait then wakes it with an
// interrupt.
import { NODE_SCHEDULER_PARAMETERS, nodeSchedulerConfig } from '../node-scheduler.js';
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type StrategyParameter, type TimeshareStrategy } from './strategy.js';

export const SPIN_PARAMETER: StrategyParameter = { name: 'spin', help: 'busy-wait threshold: seconds of spinning before a waiting task blocks', defaultValue: 0.0002, min: 0 };

export const spinBlock: TimeshareStrategy = {
  name: 'spin-block',
  help: 'spin-block: a waiting task busy-waits up to a threshold, then blocks until its messages come',
  parameters: [...COMMON_PARAMETERS, SPIN_PARAMETER, ...NODE_SCHEDULER_PARAMETERS],
  configure(values) {
    const v = resolveParameters('spin-block', this.parameters, values);
    return { mode: 'dynamic', ...commonConfig('spin-block', v), spinThresholdS: v['spin']!, demand: false, boostPeriodS: Infinity, alternate: false, ...nodeSchedulerConfig('spin-block', v) };
  },
};
