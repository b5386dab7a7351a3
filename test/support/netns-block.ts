// One describe block's namespaced grid: started before its tests, stopped after them with the origin
// directories they made (test/support/run-support.ts).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startNetnsGrid, type NetnsClusterLayout, type NetnsGrid, type NetnsGridOptions } from './netns.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from './run-support.js';

export interface BlockGrid {
  /** The grid (once the block's tests run). */
  readonly grid: NetnsGrid;
  /** makeOrigin on this grid; the directory is removed after the block. */
  origin(seeds: number, seconds: number, gridExtra?: Record<string, unknown>): Origin;
  /**
   * Runs a new origin's sweep of one-second tasks under the work queue and checks that it ended by itself
   * within 60 s, with exit 0 and every task verified once; returns its output, and the output with its
   * standard error to show when a check fails.
   */
  runSweep(seeds: number, gridExtra: Record<string, unknown>, options?: SweepOptions): Promise<{ readonly stdout: string; readonly log: string }>;
}

export interface SweepOptions {
  /** The large model's size in bytes, instead of 60,000 (within what the agent carries in one request). */
  readonly largeModelBytes?: number;
}

/** Registers the block's beforeAll (which starts the grid) and afterAll (which removes it and the origins). */
export function gridForBlock(layout: readonly NetnsClusterLayout[], options: NetnsGridOptions = {}): BlockGrid {
  let grid: NetnsGrid | undefined;
  const origins: Origin[] = [];
  beforeAll(async () => {
    grid = await startNetnsGrid(layout, options);
  });
  afterAll(async () => {
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  });
  return {
    get grid(): NetnsGrid {
      if (!grid) throw new Error('the block grid is started in beforeAll');
      return grid;
    },
    origin(seeds, seconds, gridExtra = {}) {
      const o = makeOrigin(this.grid, seeds, seconds, gridExtra);
      origins.push(o);
      return o;
    },
    async runSweep(seeds, gridExtra, options = {}) {
      const o = this.origin(seeds, 1, gridExtra);
      if (options.largeModelBytes !== undefined) writeFileSync(join(o.dir, 'models', 'large.txt'), 'large model\n'.repeat(Math.ceil(options.largeModelBytes / 12)));
      const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue'];
      const r = await runCli(args, () => undefined, 60);
      const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
      expect(r.killedAtLimit, log).toBe(false);
      expect(r.code, log).toBe(0);
      expectEachTaskDoneOnce(o, seeds);
      return { stdout: r.stdout, log };
    },
  };
}
