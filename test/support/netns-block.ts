// One describe block's namespaced grid: started before its tests, stopped after them with the origin
// directories they made (test/support/run-support.ts).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startNetnsGrid, type NetnsClusterLayout, type NetnsGrid, type NetnsGridOptions } from './netns.js';
import { makeOrigin, type Origin } from './run-support.js';

export interface BlockGrid {
  /** The grid (once the block's tests run). */
  readonly grid: NetnsGrid;
  /** makeOrigin on this grid; the directory is removed after the block. */
  origin(seeds: number, seconds: number, gridExtra?: Record<string, unknown>): Origin;
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
  };
}
