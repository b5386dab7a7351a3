// One line per sub-command, for `gridsweep --help`, in the order it lists them. They live apart from the
// commands so that the main help loads none of the commands' modules (all fourteen took most of a second).
export const COMMAND_SUMMARIES = {
  validate: 'check grid and application descriptions (and the behaviour files a grid names), and parallel workloads',
  simulate: 'run the scheduler on a simulated grid and report makespan, resource use and transfers',
  experiment: 'run a matrix of simulations (heuristics × strategies × grids × applications × seeds), cached; or of batch policies on SWF workloads; or of time-sharing strategies',
  trace: 'simulate an SWF workload on one batch cluster under a batch policy, or time-share a parallel or SWF workload (gang scheduling, coscheduling), and print the metrics',
  map: 'map each job of an allocation log onto its nodes under a communication pattern and score the mappers by hops',
  plot: 'draw an SVG chart: makespans of an experiment (line, box) or the Gantt chart of a run',
  demo: 'run the Figure 11 study (every heuristic × shared file sizes × seeds) and write an HTML report',
  generate: 'generate applications (MCell-style, INS2D-style), grids, batch workloads (SWF), parallel workloads for time-sharing, or the Figure 11 files',
  describe: 'write the application description (WorkDescription) that a sweep file stands for',
  'check-heuristic': 'check a heuristic plug-in on seeded random instances under the run-record checker',
  run: 'run a parameter sweep for real, on this machine, SSH hosts and/or Slurm clusters',
  probe: 'measure the hosts and links of a real grid and write a grid description to simulate it',
  report: 'turn a run record into an HTML report with a Gantt chart, or a Chrome/Perfetto trace; or time-shared runs into execution profiles',
  dashboard: 'replay recorded runs side by side in a live web dashboard (Gantt charts on one clock)',
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
