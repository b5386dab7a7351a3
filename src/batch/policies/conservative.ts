// Conservative backfilling: at every dispatch, each waiting job in arrival order gets the earliest start
// that fits beside the running jobs (to their time limits) and the reservations of the jobs before it;
// those whose reservation is now start. A job may jump ahead only where it delays no earlier job.
// Cost: O(waiting jobs²) per dispatch.
import { AvailabilityProfile } from './availability-profile.js';
import { ArrivalOrderQueue } from './fcfs.js';
import type { BatchPolicy, Machine } from './policy.js';

class ConservativeQueue extends ArrivalOrderQueue {
  override dispatch(machine: Machine): void {
    if (!this.startFromHead(machine)) return;
    const profile = new AvailabilityProfile(machine.nowS, machine.freeCores(), machine.runningEnds());
    for (let i = 0; i < this.waiting.length; ) {
      const job = this.waiting.at(i);
      const startS = profile.earliestFit(job.cores, job.requestedS);
      profile.reserve(startS, job.requestedS, job.cores);
      if (startS === machine.nowS) {
        machine.start(job);
        this.waiting.removeAt(i);
      } else {
        machine.reserve(job, startS);
        i++;
      }
    }
  }
}

export const conservative: BatchPolicy = {
  name: 'conservative',
  help: 'conservative backfilling: every waiting job holds a reservation no later job may delay',
  createQueue: () => new ConservativeQueue(),
};
