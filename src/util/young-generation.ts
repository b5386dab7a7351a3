// A simulation allocates a great many short-lived objects (events, transfers, record lines). With V8's default
// young generation the scavenger runs so often that it takes about a fifth of a 100,000-task simulation;
// 64 MB semi-spaces make it rare (bench/sim.bench.ts (a): 2.6 s → 2.1 s end to end). It costs at most
// 3 × 64 MB more memory per thread, only when the allocation rate asks for it.
import { setFlagsFromString } from 'node:v8';

export const SEMI_SPACE_MB = 64;

/** For this thread: the main one, as early as possible (the commands, the benchmarks that stand for them). */
export function enlargeYoungGeneration(): void {
  setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
}

/** The same for a worker thread, as its resourceLimits (young generation = two semi-spaces + one more). */
export const WORKER_YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;
