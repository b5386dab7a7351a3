// How the sweep gets cores on a batch cluster: the jobs it submits (seed 001 folds batch systems into
// run-time estimates only; this is the pilot-job approach of today's workflow systems). The same names are
// meant for simulated and (later) real batch clusters.
//
// pilots: keep `pilots` pilot jobs queued or running on each batch cluster while Works remain; each asks
// for `pilotCores` cores (default: one node's) for `pilotWalltimeS`. While a pilot runs, each of its cores
// is a host to the scheduler (sched_new_host); when its walltime ends the hosts leave (a Work still running
// there is re-executed elsewhere, as when a host is removed) and a new pilot is submitted if Works remain.

export interface SubmissionStrategy {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
}

export const SUBMISSION_STRATEGIES: readonly SubmissionStrategy[] = [
  { name: 'pilots', help: 'keep N pilot jobs queued or running per batch cluster while Works remain; their cores are hosts until the walltime ends' },
];

export interface SubmissionOptions {
  readonly strategy: 'pilots';
  /** Pilot jobs queued or running at once, per batch cluster. */
  readonly pilots: number;
  /** Cores per pilot (undefined: one node's cores). */
  readonly pilotCores?: number;
  readonly pilotWalltimeS: number;
}

export const DEFAULT_SUBMISSION: SubmissionOptions = { strategy: 'pilots', pilots: 2, pilotWalltimeS: 3600 };

/** One line per parameter, for --help and the README. */
export const SUBMISSION_PARAMETERS = [
  { flag: 'pilots', help: 'pilots: pilot jobs queued or running at once per batch cluster', default: String(DEFAULT_SUBMISSION.pilots) },
  { flag: 'pilot-cores', help: "pilots: cores each pilot asks for (default: one node's cores)", default: undefined },
  { flag: 'pilot-walltime', help: 'pilots: seconds each pilot holds its cores (its requested time)', default: String(DEFAULT_SUBMISSION.pilotWalltimeS) },
] as const;
