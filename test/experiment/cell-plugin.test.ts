// A grid cell whose heuristic is a plug-in (cell-entry.ts): the host loads the copy shipped with the task,
// registered under the original's path, which the job names and which the host cannot read. So the cell's
// result is the one a worker thread at the origin computes with the original: same makespan, same name.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeCell, type CellTable } from '../../src/experiment/cell-entry.js';
import { executeJob, InputCache, type JobMessage } from '../../src/experiment/job.js';
import { runOne } from '../../src/experiment/simulate-runner.js';
import type { StoredResult } from '../../src/experiment/store.js';
import { RESULTS_VERSION } from '../../src/experiment/results-version.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { loadPlugin } from '../../src/scheduler/heuristics/plugin.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

describe('a grid cell with a heuristic plug-in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-cell-plugin-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const example = join(PACKAGE_ROOT, 'docs', 'examples', 'earliest-completion.mjs');
  const job = (heuristic: string): JobMessage => ({
    application: { file: join(PACKAGE_ROOT, 'apps', 'appendix-b.app') },
    grid: { file: join(PACKAGE_ROOT, 'griddescs', 'appendix-a', 'appendix-a.grid') },
    request: { options: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1 },
  });

  it('loads the shipped copy under the original path and computes the original run', async () => {
    mkdirSync(join(dir, 'files'));
    const copy = join(dir, 'files', 'earliest-completion.mjs');
    cpSync(example, copy);
    // The original's folder as the origin named it: nothing there on this "host".
    const original = join(dir, 'origin', 'earliest-completion.mjs');
    const parts = { resultsVersion: RESULTS_VERSION, applicationSha256: '', gridSha256: '', options: job(original).request.options, seed: 1, samplePeriodS: null };
    const table: CellTable = { gridsweepCells: 1, cells: { k: { job: job(original), parts, plugin: copy } }, groups: { g: ['k'] } };
    const stored = JSON.parse(await computeCell(table, 'k')) as StoredResult;
    expect(getHeuristic(original).name).toBe(original);

    // The same run with the example loaded from where it lies, as a worker thread at the origin does.
    const atOrigin = await executeJob(job(await loadPlugin(example)), runOne, new InputCache());
    expect(stored.outcome.makespanS).toBeGreaterThan(0);
    expect(stored.outcome).toEqual({ ...atOrigin.outcome, planCpuMs: stored.outcome.planCpuMs });
  });
});
