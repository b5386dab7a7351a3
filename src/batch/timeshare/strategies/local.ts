// Local scheduling: each node round-robins over its ready tasks with its own slices and no coordination;
// a task waiting for a message blocks at once (a kernel receive) and an interrupt wakes it.
import { NODE_SCHEDULER_PARAMETERS, nodeSchedulerConfig } from '../node-scheduler.js';
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const local: TimeshareStrategy = {
  name: 'local',
  help: 'local scheduling: each node round-robins its tasks, a task waiting for a message blocks at once',
  parameters: [...COMMON_PARAMETERS, ...NODE_SCHEDULER_PARAMETERS],
  configure(values) {
    const v = resolveParameters('local', this.parameters, values);
    return { mode: 'dynamic', ...commonConfig('local', v), spinThresholdS: 0, demand: false, boostPeriodS: Infinity, alternate: false, ...nodeSchedulerConfig('local', v) };
  },
};
