// The benchmarks' side of controller-cpu.ts: the argv that runs the built CLI with it loaded, and the CPU
// time it wrote.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const PRELOAD = join(PACKAGE_ROOT, 'dist', 'bench', 'support', 'controller-cpu.js');

/** A file for one run's figure, the node options that load the preload, and how to read the figure back. */
export function controllerCpuProbe(): { nodeArgs: string[]; env: NodeJS.ProcessEnv; read: () => number | undefined; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-bench-cpu-'));
  const file = join(dir, 'cpu');
  return {
    nodeArgs: ['--import', pathToFileURL(PRELOAD).href],
    env: { GRIDSWEEP_BENCH_CPU_FILE: file },
    /** User + system CPU seconds of the process, undefined when it wrote none. */
    read() {
      try {
        const [user, system] = readFileSync(file, 'utf8').trim().split(' ').map(Number);
        return user !== undefined && system !== undefined && Number.isFinite(user + system) ? (user + system) / 1e6 : undefined;
      } catch {
        return undefined;
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
