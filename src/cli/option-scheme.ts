// One option scheme for every command, and the spellings it replaced. The scheme:
//   -o, --out PATH   the command's main output, a file or a folder (never --output);
//   other outputs are named for what they hold: --record (a run record), --schedule (trace's simulated
//                    schedule), --allocation-log, --journal;
//   -j, --jobs N     how many things run at once (experiment, demo), as make and GNU parallel have it —
//                    never anything else;
//   durations are in seconds, and their names carry no unit (--plan-interval, --pilot-walltime,
//                    --overdue-grace), the help saying "seconds".
// An old spelling still works: it is rewritten before the options are read, with a note on stderr.
export interface RenamedOption {
  /** The command it applies to; every command that has the new option when absent. */
  readonly command?: string;
  readonly old: string;
  readonly now: string;
}

export const RENAMED_OPTIONS: readonly RenamedOption[] = [
  { command: 'describe', old: '--output', now: '--out' },
  { command: 'generate', old: '--output', now: '--out' },
  { command: 'plot', old: '--output', now: '--out' },
  { command: 'probe', old: '--output', now: '--out' },
  { command: 'report', old: '--output', now: '--out' },
  { command: 'trace', old: '--schedule-out', now: '--schedule' },
  { command: 'run', old: '-j', now: '--journal' },
  { old: '--overdue-grace-s', now: '--overdue-grace' },
  { old: '--min-plan-interval-s', now: '--min-plan-interval' },
  { old: '--max-plan-interval-s', now: '--max-plan-interval' },
  { old: '--hybrid-wait-s', now: '--hybrid-wait' },
];

/**
 * `args` with every old spelling that applies to `command` (which has the options `options`) replaced by
 * the new one (`--old=value` too), and one note per spelling replaced.
 */
export function renameOldOptions(command: string, options: ReadonlySet<string>, args: readonly string[]): { args: string[]; notes: string[] } {
  const notes = new Set<string>();
  const out = args.map((arg) => {
    if (arg === '--') return arg;
    for (const r of RENAMED_OPTIONS) {
      if (r.command !== undefined && r.command !== command) continue;
      if (!options.has(r.now.replace(/^-+/, ''))) continue;
      if (arg === r.old || (r.old.startsWith('--') && arg.startsWith(`${r.old}=`))) {
        notes.add(`gridsweep ${command}: note: ${r.old} is now ${r.now} (the old spelling still works, for now)`);
        return r.now + arg.slice(r.old.length);
      }
    }
    return arg;
  });
  return { args: out, notes: [...notes] };
}
