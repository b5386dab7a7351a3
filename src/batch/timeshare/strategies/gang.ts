// Gang scheduling (exact coscheduling): a global Ousterhout matrix of MPL rows by one column per node; a
// job goes into the first row with enough free columns, and every node switches to the next non-empty
// row together each slice. A waiting task busy-waits (its peers are running too). With alternate
// scheduling on, a node whose slot in the active row is empty, or whose task there is in I/O, runs a task
// of another row that has compute to do (the first in row order after the active row; a running one keeps
// the CPU while it has compute) until the slot's own task is runnable again; otherwise the slot idles.
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const gang: TimeshareStrategy = {
  name: 'gang',
  help: 'gang scheduling: an Ousterhout matrix of MPL rows, all nodes switch rows together every slice',
  parameters: [...COMMON_PARAMETERS, { name: 'alternate', help: '1: idle slots of the active row run other rows\' tasks that have compute to do; 0: they idle', defaultValue: 0, min: 0, max: 1, integer: true }],
  configure(values) {
    const v = resolveParameters('gang', this.parameters, values);
    return { mode: 'gang', ...commonConfig('gang', v), spinThresholdS: Infinity, demand: false, boostPeriodS: Infinity, alternate: v['alternate'] === 1 };
  },
};
