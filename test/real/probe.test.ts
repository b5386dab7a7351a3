// `gridsweep probe` against real sshd servers (2 clusters) and a local cluster: the grid description it
// writes loads with loadGrid, names every cluster and host of the real grid file, holds plausible
// measurements, and can be simulated; an unreachable host is a clear error with nothing written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadGrid } from '../../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { expandSweep } from '../../src/sweep/expand.js';
import { loadSweepFile } from '../../src/sweep/sweep-file.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { makeOrigin, sweepOf } from './support/origin.js';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

interface GridJson {
  clusters: { name: string; storage: string; hosts: unknown }[];
}

describe('gridsweep probe', () => {
  let farm: SshdFarm;
  let work: string;

  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h11', 'h12'], c2: ['h21'] });
    work = mkdtempSync(join(tmpdir(), 'gridsweep-probe-test-'));
  });
  afterAll(async () => {
    await farm?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a grid description with every cluster and host, plausible values, that loads and simulates', async () => {
    const g = JSON.parse(farm.realGridJson(work)) as GridJson;
    g.clusters.push({ name: 'here', storage: join(work, 'here-storage'), hosts: { type: 'local', slots: 2 } });
    const gridPath = join(work, 'grid.json');
    writeFileSync(gridPath, JSON.stringify(g, null, 2));
    const out = join(work, 'probed');
    const r = await runGridsweep(['probe', gridPath, '-o', out, '--samples', '3', '--interval', '0.3', '--transfer-bytes', String(1 << 20)]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);

    const { grid } = loadGrid(join(out, 'real.grid'));
    const clusters = grid.events.flatMap((e) => (e.kind === 'ADD_CLUSTER' ? [e.cluster] : []));
    expect(clusters.sort()).toEqual(['c1', 'c2', 'here']);
    const hosts = grid.events.flatMap((e) => (e.kind === 'ADD_HOST' ? [`${e.cluster}/${e.host}`] : []));
    expect(hosts.sort()).toEqual(['c1/h11', 'c1/h12', 'c2/h21', 'here/here.1', 'here/here.2']);
    expect(grid.linkBehaviors.size).toBe(3);
    for (const link of grid.linkBehaviors.values()) {
      expect(link.samples).toHaveLength(3);
      for (const s of link.samples) {
        expect(s.bandwidthBps).toBeGreaterThan(0);
        expect(s.latencyMs).toBeGreaterThanOrEqual(0);
        expect(s.latencyMs).toBeLessThan(5000);
      }
    }
    expect(grid.hostBehaviors.size).toBe(5);
    for (const h of grid.hostBehaviors.values()) {
      expect(h.availabilityPct).toHaveLength(3);
      for (const v of h.availabilityPct) {
        expect(v).toBeGreaterThan(0);
        expect(v).toBeLessThanOrEqual(100);
      }
    }
    // The sample period is noted in every file; the probe left nothing in the clusters' storage.
    for (const name of readdirSync(out)) expect(readFileSync(join(out, name), 'utf8')).toMatch(/^# .*\n# one sample every 0\.3 s/);
    for (const c of farm.clusters) expect(readdirSync(join(c.storage, 'gridsweep'))).toEqual([]);

    // The description simulates: a small sweep runs to completion on it.
    const origin = makeOrigin(sweepOf(3, '1'));
    try {
      const app = expandSweep(loadSweepFile(origin.sweepPath), { originDir: origin.dir }).application;
      const sim = simulate({ app, grid, scheduler: DEFAULT_SCHEDULER_OPTIONS, seed: 1, samplePeriodS: 0.3 });
      expect(sim.finished).toBe(true);
      expect(sim.worksDone).toBe(6);
    } finally {
      origin.remove();
    }
  });

  it('reports unreachable hosts clearly, exits 1 and writes nothing', async () => {
    const g = JSON.parse(farm.realGridJson(work)) as GridJson;
    const c2 = g.clusters.find((c) => c.name === 'c2')!;
    (c2.hosts as { port: number }[])[0]!.port = await closedPort();
    const gridPath = join(work, 'grid-bad.json');
    writeFileSync(gridPath, JSON.stringify(g, null, 2));
    const out = join(work, 'never');
    const r = await runGridsweep(['probe', gridPath, '-o', out, '--samples', '2', '--interval', '0.2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unreachable/);
    expect(r.stderr).toMatch(/h21 \(cluster c2\)/);
    expect(r.stderr).not.toMatch(/h11 \(cluster/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(work).filter((n) => n.includes('probe-'))).toEqual([]);
    for (const c of farm.clusters) expect(readdirSync(join(c.storage, 'gridsweep'))).toEqual([]);
  });
});
