// A simulation allocates a great many short-lived objects (events, transfers, record lines). With V8's default
// young generation (16 MB semi-spaces on Node 20) the scavenger runs often; larger semi-spaces make it rarer.
//
// V8 sizes the young generation once, when the thread starts: v8.setFlagsFromString() afterwards changes
// nothing (Node 20: the same number of scavenges with and without it). So the size is given where a thread
// starts: on node's command line for a process (the `gridsweep` command's first line, the npm scripts, the
// benchmarks' child processes), as resourceLimits for a worker thread.
//
// A process gets 32 MB semi-spaces: the 100,000-task work-queue simulation (bench/sim.bench.ts (a)) takes
// about 4 % less time than with 16 MB (medians 2.25 s against 2.35 s), and the 20,000-task XSufferage one
// (b) keeps its peak RSS (300 MB against 297 MB); 64 MB gains another 5 % on (a) but costs (b) 90 MB more.
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=32';

/** A worker thread's young generation (resourceLimits; two semi-spaces and one more): experiments' simulations. */
export const WORKER_YOUNG_GENERATION_MB = 3 * 64;
