// The largest clusters gridsweep simulates. The space-shared cluster keeps state per node, the time-shared
// one per CPU (each runs its own time slices) and per row of the gang matrix: far beyond these sizes a run
// would exhaust memory (or, for cores per node, overflow the 32-bit counts of free cores). Each bound is
// above any machine built so far (the largest have about 10 million cores), and every place a size comes
// from (command-line options, SWF headers, grid files, experiment and generator specifications) checks it.

/** Nodes of one cluster (a bag of cores, a mesh or a torus). */
export const MAX_NODES = 1 << 22;
/** Cores of one node. */
export const MAX_CORES_PER_NODE = 1 << 20;
/** CPUs of one time-shared cluster (nodes × cores per node). */
export const MAX_TIMESHARED_CPUS = 1 << 20;
/** Rows of a gang matrix: tasks one CPU time-shares. */
export const MAX_MPL = 1024;

/** What is wrong with a cluster of `nodes` × `coresPerNode` (time-shared or not), or undefined if nothing. */
export function clusterSizeProblem(nodes: number, coresPerNode: number, timeShared: boolean): string | undefined {
  if (nodes > MAX_NODES) return `a cluster of ${nodes} nodes: at most ${MAX_NODES} are supported`;
  if (coresPerNode > MAX_CORES_PER_NODE) return `nodes of ${coresPerNode} cores: at most ${MAX_CORES_PER_NODE} cores per node are supported`;
  if (timeShared && nodes * coresPerNode > MAX_TIMESHARED_CPUS) return `a time-shared cluster of ${nodes} × ${coresPerNode} CPUs: at most ${MAX_TIMESHARED_CPUS} CPUs are supported`;
  return undefined;
}
