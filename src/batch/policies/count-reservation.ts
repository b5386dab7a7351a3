// EASY's reservation by counting cores, exact whenever any free cores will do (the bag of cores, and
// non-contiguous allocation on a mesh): the head job's shadow time is the earliest expected end at which
// enough cores are free if every running job runs to its limit, and the cores spare at that time are the
// free ones then beyond what the head job takes — counting every job expected to end exactly at the
// shadow time, not only the first that made the head job fit (round requested times make such ties
// common in real logs). A later job may start now if it ends by the shadow time, or if it fits in the
// spare cores, which it then uses up.
import type { BatchJob } from '../job.js';
import type { Reservation, RunningEnd } from './policy.js';

export function countReservation(nowS: number, freeCores: number, running: readonly RunningEnd[], head: BatchJob): Reservation {
  let available = freeCores;
  let shadowS = Infinity;
  let spareCores = 0;
  for (let k = 0; k < running.length; k++) {
    available += running[k]!.cores;
    if (available < head.cores) continue;
    shadowS = running[k]!.expectedEndS;
    while (k + 1 < running.length && running[k + 1]!.expectedEndS === shadowS) available += running[++k]!.cores;
    spareCores = available - head.cores;
    break;
  }
  return {
    startS: shadowS,
    admit(job) {
      if (nowS + job.requestedS <= shadowS) return true;
      if (job.cores > spareCores) return false;
      spareCores -= job.cores;
      return true;
    },
  };
}
