// EASY backfilling (FCFS priority): jobs start in arrival order; when the head job cannot start it gets a
// reservation — the earliest time it can start if every running job runs to its time limit — and a later
// job may start now only if it can start now and does not delay that reservation: it ends (by its
// requested time) before the reservation, or it leaves room for the head job then. The cluster computes
// the reservation: by counting cores (policies/count-reservation.ts) or, under contiguous allocation, by
// asking the allocator (machines/contiguous-reservation.ts). Candidates are tried in arrival order.
import { ArrivalOrderQueue } from './fcfs.js';
import type { BatchPolicy, Machine } from './policy.js';

class EasyQueue extends ArrivalOrderQueue {
  override dispatch(machine: Machine): void {
    if (!this.startFromHead(machine)) return;
    const head = this.waiting.at(0);
    const reservation = machine.reservation(head);
    machine.reserve(head, reservation.startS);
    for (let i = 1; i < this.waiting.length && machine.freeCores() > 0; ) {
      const job = this.waiting.at(i);
      if (job.cores <= machine.freeCores() && machine.canStart(job) && reservation.admit(job)) {
        machine.start(job);
        this.waiting.removeAt(i);
        continue;
      }
      i++;
    }
  }
}

export const easy: BatchPolicy = {
  name: 'easy',
  help: 'EASY backfilling: FCFS order, later jobs may start early if they do not delay the head job',
  contiguous: true,
  createQueue: () => new EasyQueue(),
};
