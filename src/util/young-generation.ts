// A simulation allocates a great many short-lived objects (events, transfers, record lines). With V8's default
// young generation (16 MB semi-spaces on Node 20) the scavenger runs so often that it takes about a sixth of a
// 100,000-task simulation; 64 MB semi-spaces make it rare. It costs at most 3 × 64 MB more memory per thread,
// only when the allocation rate asks for it.
//
// V8 sizes the young generation once, when the thread starts: v8.setFlagsFromString() afterwards changes
// nothing (Node 20: the same number of scavenges with and without it). So the size is given where a thread
// starts: on node's command line for a process (the `gridsweep` command's first line, the npm scripts, the
// benchmarks' child processes), as resourceLimits for a worker thread.

export const SEMI_SPACE_MB = 64;

/** node's command-line option that gives a process's main thread the larger young generation. */
export const YOUNG_GENERATION_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** The same for a worker thread, as its resourceLimits (young generation = two semi-spaces + one more). */
export const WORKER_YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;
