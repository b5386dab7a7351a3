import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  FIG11_SHARED_SIZES_KB,
  KB,
  checkDistribution,
  constant,
  fig11Application,
  fig11Grid,
  generateGrid,
  generateIns2dApplication,
  generateMcellApplication,
  sample,
  uniform,
  type McellSpec,
} from '../../src/generators/index.js';
import type { Application } from '../../src/model/application.js';
import type { GridEvent } from '../../src/model/grid.js';
import { Rng } from '../../src/util/rng.js';

const base: McellSpec = {
  chunks: 4,
  tasksPerChunk: 10,
  sharedFileSizeBytes: constant(1_000_000),
  unsharedInputsPerTask: 2,
  unsharedInputSizeBytes: uniform(100, 200),
  outputSizeBytes: uniform(50, 60),
  runTimeS: uniform(10, 20),
};

function sharedOf(app: Application, chunks: number): number[] {
  return app.works.map((w) => w.inputs.find((f) => f < chunks)!);
}

describe('distributions', () => {
  it('samples within bounds; constants draw nothing from the generator', () => {
    const rng = new Rng(1);
    for (let i = 0; i < 1000; i++) {
      const u = sample(uniform(3, 4), rng);
      expect(u).toBeGreaterThanOrEqual(3);
      expect(u).toBeLessThan(4);
      const n = sample({ kind: 'normal', mean: 10, stddev: 5, min: 8, max: 11 }, rng);
      expect(n).toBeGreaterThanOrEqual(8);
      expect(n).toBeLessThanOrEqual(11);
    }
    const a = new Rng(7);
    const b = new Rng(7);
    sample(constant(5), a);
    expect(a.next()).toBe(b.next());
  });

  it('a truncated normal keeps its mean when the truncation is symmetric', () => {
    const rng = new Rng(2);
    let sum = 0;
    for (let i = 0; i < 20000; i++) sum += sample({ kind: 'normal', mean: 50, stddev: 10, min: 40, max: 60 }, rng);
    expect(Math.abs(sum / 20000 - 50)).toBeLessThan(0.3);
  });

  it('rejects impossible distributions with the quantity named', () => {
    expect(() => checkDistribution(uniform(5, 1), 'runTimeS')).toThrow(/runTimeS: uniform needs finite min <= max/);
    expect(() => checkDistribution({ kind: 'normal', mean: 1, stddev: -1 }, 'x')).toThrow(/stddev >= 0/);
  });
});

describe('MCell-style applications', () => {
  it('has chunks of tasks sharing one file, two unshared inputs and one output each', () => {
    const app = generateMcellApplication(base, new Rng(1));
    expect(app.works).toHaveLength(40);
    expect(app.files).toHaveLength(4 + 40 * 2 + 40);
    app.files.forEach((f, i) => expect(f.id).toBe(i));
    app.works.forEach((w, t) => {
      expect(w.id).toBe(t);
      expect(w.inputs).toHaveLength(3);
      expect(w.inputs[0]).toBe(Math.floor(t / 10));
      expect(w.outputs).toHaveLength(1);
      expect(w.runTimeS[0]).toBeGreaterThanOrEqual(10);
      expect(w.runTimeS[0]).toBeLessThan(20);
      expect(w.estRunTimeS).toEqual(w.runTimeS);
    });
    // Every unshared input and output is used by exactly one task.
    const uses = new Map<number, number>();
    for (const w of app.works) for (const f of [...w.inputs, ...w.outputs]) uses.set(f, (uses.get(f) ?? 0) + 1);
    for (const f of app.files) expect(uses.get(f.id)).toBe(f.id < 4 ? 10 : 1);
    expect(app.files.slice(0, 4).every((f) => f.sizeBytes === 1_000_000)).toBe(true);
  });

  it('is a pure function of the spec and the seed', () => {
    expect(generateMcellApplication(base, new Rng(9))).toEqual(generateMcellApplication(base, new Rng(9)));
    expect(generateMcellApplication(base, new Rng(9))).not.toEqual(generateMcellApplication(base, new Rng(10)));
  });

  it('perturbation moves exactly round(p·n) tasks to another chunk and leaves sizes and times alone', () => {
    const plain = generateMcellApplication(base, new Rng(3));
    const perturbed = generateMcellApplication({ ...base, perturbation: 0.25 }, new Rng(3));
    const a = sharedOf(plain, 4);
    const b = sharedOf(perturbed, 4);
    expect(a.filter((c, t) => c !== b[t]).length).toBe(10);
    expect(perturbed.files).toEqual(plain.files);
    expect(perturbed.works.map((w) => w.runTimeS)).toEqual(plain.works.map((w) => w.runTimeS));
  });

  it('the CCR knob scales run times to the requested ratio', () => {
    const app = generateMcellApplication({ ...base, ccr: { ratio: 2, referenceBandwidthBps: 1000 } }, new Rng(4));
    const bytes = app.files.reduce((s, f) => s + f.sizeBytes, 0);
    const timeS = app.works.reduce((s, w) => s + w.runTimeS[0]!, 0);
    expect(timeS / (bytes / 1000)).toBeCloseTo(2, 3);
  });

  it('several architectures and noisy estimates', () => {
    const app = generateMcellApplication(
      { ...base, architectures: 2, archRunTimeFactors: [1, 2], runTimeEstimateErrorPct: 10, sizeEstimateErrorPct: 5 },
      new Rng(5),
    );
    for (const w of app.works) {
      expect(w.runTimeS[1]).toBeCloseTo(2 * w.runTimeS[0]!, 2);
      w.estRunTimeS.forEach((e, a) => expect(Math.abs(e / w.runTimeS[a]! - 1)).toBeLessThanOrEqual(0.1 + 1e-6));
    }
    expect(app.works.some((w) => w.estRunTimeS[0] !== w.runTimeS[0])).toBe(true);
    for (const f of app.files) expect(Math.abs(f.estSizeBytes - f.sizeBytes)).toBeLessThanOrEqual(0.05 * f.sizeBytes + 1);
    expect(() => generateMcellApplication({ ...base, architectures: 2, archRunTimeFactors: [1] }, new Rng(1))).toThrow(/one per architecture/);
  });
});

describe('INS2D-style applications', () => {
  it('shares nothing', () => {
    const app = generateIns2dApplication({ ...base, tasks: 25 }, new Rng(1));
    expect(app.works).toHaveLength(25);
    const seen = new Set<number>();
    for (const w of app.works) for (const f of [...w.inputs, ...w.outputs]) {
      expect(seen.has(f)).toBe(false);
      seen.add(f);
    }
    expect(seen.size).toBe(app.files.length);
  });
});

describe('grid generator', () => {
  it('static clusters with shared constant behaviours', () => {
    const grid = generateGrid(
      { clusters: [{ hosts: [{ count: 2, availabilityPct: 50 }, { count: 1, availabilityPct: 100, arch: 1 }], bandwidthBps: 1e5, latencyMs: 5 }] },
      new Rng(1),
    );
    expect(grid.events.map((e) => e.kind)).toEqual(['ADD_CLUSTER', 'ADD_HOST', 'ADD_HOST', 'ADD_HOST']);
    expect(grid.events.every((e) => e.timeS === 0)).toBe(true);
    expect([...grid.hostBehaviors.keys()]).toEqual(['avail_50', 'avail_100']);
    expect(grid.linkBehaviors.get('link_100000Bps_5ms')!.samples).toEqual([{ latencyMs: 5, bandwidthBps: 1e5 }]);
    const last = grid.events[3]!;
    expect(last.kind === 'ADD_HOST' && last.arch).toBe(1);
  });

  it('drawn series have the requested length and range', () => {
    const grid = generateGrid(
      {
        clusters: [
          {
            name: 'c',
            hosts: [{ count: 2, availabilityPct: { distribution: uniform(20, 80), samples: 30 } }],
            bandwidthBps: { distribution: { kind: 'normal', mean: 1e6, stddev: 1e5, min: 1e5 }, samples: 12 },
            latencyMs: 20,
          },
        ],
      },
      new Rng(2),
    );
    const h1 = grid.hostBehaviors.get('c.h1_avail')!;
    const h2 = grid.hostBehaviors.get('c.h2_avail')!;
    expect(h1.availabilityPct).toHaveLength(30);
    expect(h1.availabilityPct).not.toEqual(h2.availabilityPct);
    for (const v of h1.availabilityPct) expect(v >= 20 && v < 80).toBe(true);
    const link = grid.linkBehaviors.get('c_link')!;
    expect(link.samples).toHaveLength(12);
    expect(link.samples.every((s) => s.latencyMs === 20 && s.bandwidthBps >= 1e5)).toBe(true);
  });

  it('transient resources: consistent, time-sorted failures and joins', () => {
    const grid = generateGrid(
      {
        clusters: [
          { hosts: [{ count: 5, availabilityPct: 100 }], bandwidthBps: 1e5, latencyMs: 1 },
          { hosts: [{ count: 3, availabilityPct: 60 }], bandwidthBps: 1e5, latencyMs: 1 },
        ],
        transient: {
          horizonS: 20_000,
          hostUpS: uniform(1000, 4000),
          hostDownS: uniform(100, 500),
          clusterUpS: uniform(3000, 8000),
          clusterDownS: uniform(200, 600),
          lateJoinFraction: 0.3,
        },
      },
      new Rng(8),
    );
    const kinds = new Set(grid.events.map((e) => e.kind));
    for (const k of ['ADD_CLUSTER', 'ADD_HOST', 'REMOVE_HOST', 'REMOVE_CLUSTER'] as const) expect(kinds.has(k)).toBe(true);
    replayIsConsistent(grid.events);
  });

  it('transient resources: the same events as the first generator wrote, host periods of zero and late joins included', () => {
    // The events visit only the hosts that flip at each time (and all at a cluster's change); before, every
    // time visited every host and counted its flips from the start: 70 s for 400 hosts and 290,000 events,
    // 2 s now. The digests are those of the generator before that change, for the same specification.
    const spec = {
      clusters: [
        { hosts: [{ count: 40, availabilityPct: 100 }, { count: 7, availabilityPct: 60 }], bandwidthBps: 1e5, latencyMs: 1 },
        { hosts: [{ count: 12, availabilityPct: 60 }], bandwidthBps: 1e5, latencyMs: 1 },
      ],
      transient: { horizonS: 50_000, hostUpS: uniform(0, 1500), hostDownS: constant(100), clusterUpS: uniform(1000, 8000), clusterDownS: uniform(0, 300), lateJoinFraction: 0.3 },
    };
    const digests = [1, 2, 3].map((seed) => {
      const { events } = generateGrid(spec, new Rng(seed));
      replayIsConsistent(events);
      return `${events.length} ${createHash('sha256').update(JSON.stringify(events)).digest('hex')}`;
    });
    expect(digests).toEqual([
      '5919 628a51f2f6a321d1f887b66032a717ebd04c2c2f4e6a789899a11ff8e2beda92',
      '6290 c269e22ac3b8afec5aef5cdc868221d003045a9f9b57a4220660ef23f329121a',
      '6033 25f61c3ce1d2dde06fbd15f085da711fe7f8e28bc85261fcde51f9f8bfb17647',
    ]);
  });

  it('the Figure 11 grid: 4 + 6 + 12 hosts at 100/70/30 % behind 10 KB/s links', () => {
    const grid = fig11Grid();
    const hosts = grid.events.filter((e) => e.kind === 'ADD_HOST');
    expect(hosts).toHaveLength(22);
    const pct = (cluster: string) =>
      hosts.filter((h) => h.kind === 'ADD_HOST' && h.cluster === cluster).map((h) => (h.kind === 'ADD_HOST' ? grid.hostBehaviors.get(h.behavior)!.availabilityPct : []));
    expect(pct('cluster1')).toEqual(new Array(4).fill([100]));
    expect(pct('cluster2')).toEqual(new Array(6).fill([70]));
    expect(pct('cluster3')).toEqual(new Array(12).fill([30]));
    for (const l of grid.linkBehaviors.values()) expect(l.samples.map((s) => s.bandwidthBps)).toEqual([10240]);
  });

  it('the Figure 11 applications differ only in the shared file size', () => {
    const apps = FIG11_SHARED_SIZES_KB.map((kb) => fig11Application(kb));
    const first = apps[0]!;
    expect(first.works).toHaveLength(400);
    expect(first.files).toHaveLength(8 + 800 + 400);
    for (const w of first.works) {
      expect(w.inputs).toHaveLength(3);
      expect(w.runTimeS[0]! >= 90 && w.runTimeS[0]! <= 110).toBe(true);
    }
    for (const f of first.files.slice(8)) expect(f.sizeBytes >= 8 * KB && f.sizeBytes <= 12 * KB).toBe(true);
    apps.forEach((app, i) => {
      expect(app.works).toEqual(first.works);
      expect(app.files.slice(8)).toEqual(first.files.slice(8));
      expect(app.files.slice(0, 8).map((f) => f.sizeBytes)).toEqual(new Array(8).fill(FIG11_SHARED_SIZES_KB[i]! * KB));
    });
  });
});

/** Replays events: a host is added only to an up cluster and only when down; removals match. */
function replayIsConsistent(events: readonly GridEvent[]): void {
  const clusterUp = new Set<string>();
  const hostUp = new Map<string, string>();
  let t = 0;
  for (const e of events) {
    expect(e.timeS).toBeGreaterThanOrEqual(t);
    t = e.timeS;
    switch (e.kind) {
      case 'ADD_CLUSTER':
        expect(clusterUp.has(e.cluster)).toBe(false);
        clusterUp.add(e.cluster);
        break;
      case 'REMOVE_CLUSTER':
        expect(clusterUp.has(e.cluster)).toBe(true);
        clusterUp.delete(e.cluster);
        for (const [h, c] of [...hostUp]) if (c === e.cluster) hostUp.delete(h);
        break;
      case 'ADD_HOST':
        expect(clusterUp.has(e.cluster)).toBe(true);
        expect(hostUp.has(e.host)).toBe(false);
        hostUp.set(e.host, e.cluster);
        break;
      case 'REMOVE_HOST':
        expect(hostUp.has(e.host)).toBe(true);
        hostUp.delete(e.host);
        break;
      default:
        break;
    }
  }
}

describe('bad generator parameters', () => {
  it('name the parameter and what was expected', () => {
    const { runTimeS: _r, ...noRunTime } = base;
    expect(() => generateMcellApplication(noRunTime as McellSpec, new Rng(1))).toThrow(/runTimeS: expected a distribution/);
    expect(() => generateMcellApplication({ ...base, chunks: 1.5 }, new Rng(1))).toThrow(/chunks must be a whole number >= 1, got 1.5/);
    expect(() => generateMcellApplication({ ...base, perturbation: 2 }, new Rng(1))).toThrow(/perturbation must be a fraction/);
    expect(() => generateGrid({ clusters: [] }, new Rng(1))).toThrow(/at least one cluster/);
    expect(() => generateGrid({ clusters: [{ hosts: [{ count: 1, availabilityPct: 120 }], bandwidthBps: 1, latencyMs: 0 }] }, new Rng(1))).toThrow(/availabilityPct must be in \[0, 100\], got 120/);
  });

  // Found by fuzzing the specifications: each of these ran for minutes or ended the process (V8's "invalid
  // size" for an array of failures up to 1e308 s); now each is refused at once, naming what to change.
  it('sizes no simulation could hold are refused before anything is drawn, or as soon as the failures pass the bound', () => {
    expect(() => generateMcellApplication({ ...base, chunks: 1e9 }, new Rng(1))).toThrow(/^chunks × tasksPerChunk gives 10000000000 tasks, more than the 10000000 a generated application may have$/);
    expect(() => generateIns2dApplication({ ...base, tasks: 5_000_000, unsharedInputsPerTask: 100 }, new Rng(1))).toThrow(/^unsharedInputsPerTask gives 505000000 files, more than the 134217728 an application may have$/);
    const hosts = (count: number) => ({ clusters: [{ hosts: [{ count, availabilityPct: 100 }], bandwidthBps: 1, latencyMs: 0 }] });
    expect(() => generateGrid(hosts(1e9), new Rng(1))).toThrow(/^clusters: 1000000000 hosts in all, more than the 100000 a generated grid may have$/);
    const failing = { ...hosts(4), transient: { horizonS: 1e308, hostUpS: uniform(10, 20), hostDownS: uniform(1, 2) } };
    expect(() => generateGrid(failing, new Rng(1))).toThrow(/^transient: more than 1000000 failures and repairs before horizonS \(1e\+308 s\); shorten horizonS or lengthen the up and down times$/);
  });
});
