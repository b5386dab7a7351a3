// EASY backfilling (FCFS priority): jobs start in arrival order; when the head job does not fit it gets a
// reservation — the earliest time enough cores are free if every running job runs to its time limit — and
// a later job may start now only if it fits now and does not delay that reservation: it ends (by its
// requested time) before the reservation, or it uses only cores the head job will not need then.
// Candidates are tried in arrival order.
import { ArrivalOrderQueue } from './fcfs.js';
import type { BatchPolicy, Machine } from './policy.js';

class EasyQueue extends ArrivalOrderQueue {
  override dispatch(machine: Machine): void {
    if (!this.startFromHead(machine)) return;
    const head = this.waiting.at(0);
    let available = machine.freeCores();
    let shadowS = Infinity;
    let extraCores = 0;
    const running = machine.runningEnds();
    for (let k = 0; k < running.length; k++) {
      available += running[k]!.cores;
      if (available < head.cores) continue;
      // Every job expected to end at the shadow time frees its cores then, not only the first that
      // makes the head job fit (round requested times make such ties common in real logs).
      shadowS = running[k]!.expectedEndS;
      while (k + 1 < running.length && running[k + 1]!.expectedEndS === shadowS) available += running[++k]!.cores;
      extraCores = available - head.cores;
      break;
    }
    machine.reserve(head, shadowS);
    for (let i = 1; i < this.waiting.length && machine.freeCores() > 0; ) {
      const job = this.waiting.at(i);
      if (job.cores <= machine.freeCores()) {
        const endsBeforeShadow = machine.nowS + job.requestedS <= shadowS;
        if (endsBeforeShadow || job.cores <= extraCores) {
          if (!endsBeforeShadow) extraCores -= job.cores;
          machine.start(job);
          this.waiting.removeAt(i);
          continue;
        }
      }
      i++;
    }
  }
}

export const easy: BatchPolicy = {
  name: 'easy',
  help: 'EASY backfilling: FCFS order, later jobs may start early if they do not delay the head job',
  createQueue: () => new EasyQueue(),
};
