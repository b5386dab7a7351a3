// H0 Workqueue (self-scheduling, Berman et al. 1999, §5.2.1): no estimates. Each host with nothing running or queued
// (and not closed) gets the next unplaced Work, by increasing Work id, in host order. A host that finishes
// empties its FIFO, which makes do_schedule() call do_plan() again, so Works go out one at a time as hosts
// free up.
import type { Heuristic, PlanContext } from './heuristic.js';

export const workqueue: Heuristic = {
  name: 'workqueue',
  code: 'H0',
  help: 'self-scheduling: the next Work (by id) goes to a host as soon as it is idle; uses no estimates',
  plan(ctx: PlanContext): void {
    const { chart, works } = ctx;
    let next = 0;
    for (let host = 0; host < chart.hosts.length && next < works.length; host++) {
      if (chart.isIdle(host) && chart.takesWork(host)) chart.commit(works[next++]!, host);
    }
  },
};
