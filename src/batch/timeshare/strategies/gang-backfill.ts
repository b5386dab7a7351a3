// Gang scheduling with backfilling: the Ousterhout matrix of gang scheduling, but when the job at the head
// of the waiting queue fits no row, later waiting jobs that fit some row start at once (aggressive
// backfilling, no reservation: each goes, in arrival order, to the first row with enough free columns,
// on that row's lowest-numbered free columns — idle slots of existing rows or an empty row). The head
// keeps its place: whenever cells free up it is tried first. Without a reservation a wide head job can be
// passed by narrower ones for as long as they keep fitting; `depth` bounds how far behind the head jobs
// are looked for.
import { COMMON_PARAMETERS, commonConfig, resolveParameters, type TimeshareStrategy } from './strategy.js';

export const gangBackfill: TimeshareStrategy = {
  name: 'gang-backfill',
  help: 'gang scheduling with backfilling: when the head job fits no row, later jobs that fit start in its place',
  parameters: [
    ...COMMON_PARAMETERS,
    { name: 'alternate', help: "1: idle slots of the active row run other rows' tasks that have compute to do; 0: they idle", defaultValue: 0, min: 0, max: 1, integer: true },
    { name: 'depth', help: 'waiting jobs behind the head looked at for backfilling', defaultValue: 64, min: 1, integer: true },
  ],
  configure(values) {
    const v = resolveParameters('gang-backfill', this.parameters, values);
    return {
      mode: 'gang',
      ...commonConfig('gang-backfill', v),
      spinThresholdS: Infinity,
      demand: false,
      boostPeriodS: Infinity,
      alternate: v['alternate'] === 1,
      backfill: true,
      backfillDepth: v['depth']!,
    };
  },
};
