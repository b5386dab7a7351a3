// Conservative backfilling: every waiting job holds a reservation, made when it arrives behind all earlier
// jobs' reservations and the running jobs' time limits. At each dispatch the jobs are compressed in arrival
// order: each gives its reservation back and takes the earliest slot that fits beside the others — never
// later than the one it gave back, which is still free — and those whose slot is now start. So a job may
// jump ahead only where it delays no other job's reservation.
// Cost: O(waiting jobs²) per dispatch.
import type { BatchJob } from '../job.js';
import { AvailabilityProfile } from './availability-profile.js';
import { ArrivalOrderQueue } from './fcfs.js';
import type { BatchPolicy, Machine } from './policy.js';

class ConservativeQueue extends ArrivalOrderQueue {
  private readonly reservations = new Map<BatchJob, number>();

  override dispatch(machine: Machine): void {
    const profile = new AvailabilityProfile(machine.nowS, machine.freeCores(), machine.runningEnds());
    for (const [job, startS] of this.reservations) profile.reserve(startS, job.requestedS, job.cores);
    for (let i = 0; i < this.waiting.length; ) {
      const job = this.waiting.at(i);
      const held = this.reservations.get(job);
      if (held !== undefined) profile.reserve(held, job.requestedS, -job.cores);
      const startS = profile.earliestFit(job.cores, job.requestedS);
      profile.reserve(startS, job.requestedS, job.cores);
      if (startS === machine.nowS) {
        this.reservations.delete(job);
        machine.start(job);
        this.waiting.removeAt(i);
      } else {
        this.reservations.set(job, startS);
        machine.reserve(job, startS);
        i++;
      }
    }
  }
}

export const conservative: BatchPolicy = {
  name: 'conservative',
  help: 'conservative backfilling: every waiting job holds a reservation no later job may delay',
  contiguous: false,
  createQueue: () => new ConservativeQueue(),
};
