// The paper's own examples (appendix A grid, appendix B application) parse as printed.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadApplication, loadGrid, parseApplication, parseGridEvents } from '../../src/formats/index.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const APP = join(PACKAGE_ROOT, 'apps/appendix-b.app');
const GRID = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');

describe('appendix B application', () => {
  const app = loadApplication(APP);

  it('has the 22 files and 12 works of the paper', () => {
    expect(app.version).toBe('1');
    expect(app.files).toHaveLength(22);
    expect(app.works).toHaveLength(12);
    expect(app.files[2]).toEqual({ id: 2, name: 'file_2', sizeBytes: 1230456, estSizeBytes: 1230456 });
    expect(app.files[21]).toEqual({ id: 21, name: 'file_21', sizeBytes: 234559, estSizeBytes: 234559 });
  });

  it('reads the spaced lists of a Work line', () => {
    expect(app.works[0]).toEqual({ id: 0, inputs: [0, 1, 2], outputs: [10], runTimeS: [600, 500, 600], estRunTimeS: [610, 503, 602] });
    expect(app.works[9]).toEqual({ id: 9, inputs: [2, 6, 8], outputs: [19], runTimeS: [300, 200, 600], estRunTimeS: [256, 202, 577] });
    expect(app.works[11]!.estRunTimeS).toEqual([300, 200, 600]);
  });

  it('accepts the same lines written bare', () => {
    const bare = readFileSync(APP, 'utf8').replace(/[<>]/g, ' ');
    expect(parseApplication(bare, 'bare.app')).toEqual(app);
  });
});

describe('appendix A grid', () => {
  const { grid, warnings } = loadGrid(GRID);

  it('has the 22 events in time order', () => {
    expect(grid.version).toBe('1');
    expect(grid.events).toHaveLength(22);
    expect(grid.events.map((e) => e.timeS)).toEqual([...grid.events.map((e) => e.timeS)].sort((a, b) => a - b));
    const { pos: _p, ...first } = grid.events[1]!;
    expect(first).toEqual({ kind: 'ADD_HOST', timeS: 0, cluster: 'cluster3', host: 'host3.1', behavior: 'stable_50', offset: 1, arch: 0 });
    expect(grid.events[1]!.pos).toEqual({ file: GRID, line: 4, column: 1 });
    const last = grid.events[21]!;
    expect(last).toMatchObject({ kind: 'CHANGE_CLUSTER_BEHAVIOR', timeS: 1550, cluster: 'cluster3', behavior: 'stable_100Kb', offset: 2 });
  });

  it('loads the 8 behaviour files it names, by kind', () => {
    expect([...grid.linkBehaviors.keys()].sort()).toEqual(['stable_100Kb', 'stable_10Kb', 'stable_1Mb']);
    expect([...grid.hostBehaviors.keys()].sort()).toEqual(['loaded_2', 'stable_100', 'stable_50', 'stable_70', 'stable_90']);
    expect(grid.linkBehaviors.get('stable_100Kb')!.samples).toEqual([{ latencyMs: 50, bandwidthBps: 102400 }]);
    expect(grid.hostBehaviors.get('stable_70')!.availabilityPct).toEqual([70]);
    expect(grid.hostBehaviors.get('loaded_2')!.availabilityPct).toHaveLength(20);
  });

  it('warns (does not fail) about the change to cluster3, removed at 200 and never re-added', () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.pos).toEqual({ file: GRID, line: 24, column: 31 });
    expect(warnings[0]!.message).toBe(
      "cluster 'cluster3' is not in the grid at time 1550 (removed at time 200, line 15); the new behaviour applies only if the cluster is added again",
    );
  });

  it('parses the same events written bare', () => {
    const text = readFileSync(GRID, 'utf8');
    const strip = (es: readonly object[]) => es.map(({ pos: _p, ...e }: { pos?: unknown }) => e);
    expect(strip(parseGridEvents(text.replace(/[<>]/g, ''), 'bare.grid').events)).toEqual(strip(grid.events));
  });
});
