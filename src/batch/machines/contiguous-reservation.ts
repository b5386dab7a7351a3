// EASY's reservation under contiguous allocation (Bunde and Leung 2015, §III-A: the allocator must be
// "pair-testable"). Counting cores is not enough: enough nodes may be free at the shadow time and still
// hold no box for the head job. So the shadow time is the earliest expected end (all jobs ending then
// counted together) at which the allocator places the head job on the nodes free then; and a later job
// that would still run at the shadow time may start now only if, with the nodes it takes now held, the
// allocator can still place the head job at the shadow time. Each admitted job's nodes are then held in
// that picture of the shadow time, so several backfills are checked together.
import type { BatchJob } from '../job.js';
import type { RunningAllocation } from '../placement.js';
import type { Reservation } from '../policies/policy.js';
import { newStateVersion, type FreeNodes, type NodeAllocator } from './node-allocator.js';

interface ContiguousMachine extends FreeNodes {
  readonly allocator: NodeAllocator;
}

export function contiguousReservation(
  nowS: number,
  machine: ContiguousMachine,
  running: readonly RunningAllocation[],
  headNodes: number,
  nodesNow: (job: BatchJob) => Int32Array | undefined,
  nodesOf: (job: BatchJob) => number,
): Reservation {
  const atShadow = { topology: machine.topology, isFree: Uint8Array.from(machine.isFree), count: machine.count, version: newStateVersion() };
  let shadowS = Infinity;
  for (let k = 0; k < running.length; ) {
    const endS = running[k]!.expectedEndS;
    for (; k < running.length && running[k]!.expectedEndS === endS; k++) {
      const a = running[k]!.allocation;
      for (let i = 0; i < a.length; i += 2) atShadow.isFree[a[i]!] = 1;
      atShadow.count += a.length / 2;
    }
    atShadow.version = newStateVersion();
    // Too few nodes free: no place can exist yet, and the allocator need not look.
    if (atShadow.count >= headNodes && machine.allocator.allocate(atShadow, headNodes) !== undefined) {
      shadowS = endS;
      break;
    }
  }
  return {
    startS: shadowS,
    admit(job) {
      if (nowS + job.requestedS <= shadowS) return true;
      if (shadowS === Infinity) return true;
      const nodes = nodesNow(job);
      if (nodes === undefined || nodes.length !== nodesOf(job)) return false;
      for (const node of nodes) atShadow.isFree[node] = 0;
      atShadow.count -= nodes.length;
      atShadow.version = newStateVersion();
      if (atShadow.count >= headNodes && machine.allocator.allocate(atShadow, headNodes) !== undefined) return true;
      for (const node of nodes) atShadow.isFree[node] = 1;
      atShadow.count += nodes.length;
      atShadow.version = newStateVersion();
      return false;
    },
  };
}
