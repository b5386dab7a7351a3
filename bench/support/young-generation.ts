// Benchmarks that simulate in their own process measure it as the `gridsweep` command runs: with node's
// larger young generation (src/util/young-generation.ts), which only node's command line can give.
import { spawnSync } from 'node:child_process';
import { YOUNG_GENERATION_FLAG } from '../../src/util/young-generation.js';

/**
 * Unless this process already has the larger young generation, runs it again with it (same script, same
 * arguments, same terminal) and exits with that run's status. Call first thing.
 */
export function runWithYoungGeneration(): void {
  if (process.execArgv.includes(YOUNG_GENERATION_FLAG)) return;
  const r = spawnSync(process.execPath, [YOUNG_GENERATION_FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
