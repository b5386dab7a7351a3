// How the sweep gets cores on a batch cluster: the jobs it submits (Berman et al. 1999 folds batch systems into
// run-time estimates only; this is the pilot-job approach of today's workflow systems). The same names are
// meant for simulated and (later) real batch clusters.
//
// pilots: keep `pilots` pilot jobs queued or running on each batch cluster while Works remain; each asks
// for `pilotCores` cores (default: one node's) for `pilotWalltimeS`. While a pilot runs, each of its cores
// is a host to the scheduler (sched_new_host); when its walltime ends the hosts leave (a Work still running
// there is re-executed elsewhere, as when a host is removed) and a new pilot is submitted if Works remain.
//
// per-work: one single-core job per Work still to do (at most `pilots` queued or running at once), each
// asking for `pilotWalltimeS`; its core is a host for one Work: once a Work has been computed there, the
// job ends and frees the core (a job whose core got no Work ends at its walltime).
//
// Either way a cluster whose jobs keep ending with no Work computed on them is given up (IdlePilots): the
// same rule for simulated batch clusters (backends/sim/batch-site.ts) and real Slurm pilots
// (backends/slurm/pilot-pool.ts).

export interface SubmissionStrategy {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
}

export const SUBMISSION_STRATEGIES: readonly SubmissionStrategy[] = [
  { name: 'pilots', help: 'keep N pilot jobs queued or running per batch cluster while Works remain; their cores are hosts until the walltime ends' },
  { name: 'per-work', help: 'one single-core job per Work to do (at most N at once); it ends as soon as one Work has been computed on it' },
];

export interface SubmissionOptions {
  readonly strategy: 'pilots' | 'per-work';
  /** Pilot jobs queued or running at once, per batch cluster. */
  readonly pilots: number;
  /** Cores per pilot (undefined: one node's cores). */
  readonly pilotCores?: number;
  readonly pilotWalltimeS: number;
}

export const DEFAULT_SUBMISSION: SubmissionOptions = { strategy: 'pilots', pilots: 2, pilotWalltimeS: 3600 };

/** One line per parameter, for --help and the README. */
export const SUBMISSION_PARAMETERS = [
  { flag: 'pilots', help: 'jobs (pilots, or per-Work jobs) queued or running at once per batch cluster', default: String(DEFAULT_SUBMISSION.pilots) },
  { flag: 'pilot-cores', help: "pilots: cores each pilot asks for (default: one node's cores)", default: undefined },
  { flag: 'pilot-walltime', help: "seconds each job asks for (its requested time): a pilot holds its cores that long, a per-Work job at most", default: String(DEFAULT_SUBMISSION.pilotWalltimeS) },
] as const;

/**
 * After this many jobs in a row (or twice the jobs kept at once, if more) end with no Work computed on
 * them, a batch cluster gets no more: the Works left cannot run on its jobs (longer than the walltime, or
 * the jobs die as they start), and the run must end, or go on elsewhere, instead of submitting for ever.
 */
export const IDLE_PILOTS_LIMIT = 4;

/** Idle jobs in a row that make a cluster be given up, when `pilotsAtOnce` are kept queued or running. */
export function idlePilotsLimit(pilotsAtOnce: number): number {
  return Math.max(IDLE_PILOTS_LIMIT, 2 * pilotsAtOnce);
}

/**
 * The give-up rule of one batch cluster: told of each job that ends (whether some Work was computed on
 * it), it says when the cluster is to get no more jobs. Once given up, it stays so.
 */
export class IdlePilots {
  private inARow = 0;
  private gaveUp = false;
  readonly limit: number;

  constructor(pilotsAtOnce: number) {
    this.limit = idlePilotsLimit(pilotsAtOnce);
  }

  /** A job ended; `computedWork`: some Work was computed on it. True when this end gives the cluster up. */
  ended(computedWork: boolean): boolean {
    this.inARow = computedWork ? 0 : this.inARow + 1;
    if (this.gaveUp || this.inARow < this.limit) return false;
    this.gaveUp = true;
    return true;
  }

  /** No more jobs are to be submitted. */
  get givenUp(): boolean {
    return this.gaveUp;
  }

  /** Jobs that ended idle since the last one on which a Work was computed. */
  get idleInARow(): number {
    return this.inARow;
  }
}
