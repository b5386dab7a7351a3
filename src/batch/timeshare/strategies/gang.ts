// Gang scheduling (exact coscheduling): a global Ousterhout matrix of MPL rows by one column per node; a
// job goes into the first row with enough free columns, and every node switches to the next non-empty
// row together each slice. A waiting task busy-waits (its peers are running too). Idle slots of a row are
// left idle: alternate scheduling is not implemented.
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const gang: TimeshareStrategy = {
  name: 'gang',
  help: 'gang scheduling: an Ousterhout matrix of MPL rows, all nodes switch rows together every slice',
  parameters: COMMON_PARAMETERS,
  configure(values) {
    const v = resolveParameters('gang', this.parameters, values);
    return { mode: 'gang', ...commonConfig('gang', v), spinThresholdS: Infinity, demand: false, boostPeriodS: Infinity };
  },
};
