// The sweep beside a time-shared batch cluster (two-pass model, pilot-share.ts): a sweep's makespan on a
// gang-scheduled cluster against the same cluster space-shared (gang with MPL 1 is FCFS space sharing),
// with the expectation reasoned by hand.
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { getTimeshareStrategy } from '../../src/batch/timeshare/registry.js';
import { pilotGrid, pilotShares } from '../../src/experiment/timeshare/pilot-share.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import type { Application } from '../../src/model/application.js';

// 4 cores. Another user's job takes all 4 for 100 s, submitted at 0; then 4 one-core pilots of 400 s.
const BACKGROUND = [{ id: 1, submitS: 0, runS: 100, cores: 4 }];
const PILOTS = { count: 4, coresEach: 1, walltimeS: 400 };
const P = 5;
const gang = (mpl: number) => getTimeshareStrategy('gang').configure({ mpl, slice: 1, 'context-switch': 0 });
const LINK = { kind: 'link' as const, name: 'fast', samples: [{ latencyMs: 0, bandwidthBps: 1e9 }] };

/** `n` works of 25 s each (at 100 % CPU), 1-byte input and output each. */
function sweep(n: number): Application {
  return {
    version: '1',
    files: Array.from({ length: 2 * n }, (_, id) => ({ id, name: `f${id}`, sizeBytes: 1, estSizeBytes: 1 })),
    works: Array.from({ length: n }, (_, id) => ({ id, inputs: [2 * id], outputs: [2 * id + 1], runTimeS: [25], estRunTimeS: [25] })),
  };
}

function makespan(mpl: number, works: number): number {
  const grid = pilotGrid('c', LINK, pilotShares({ cores: 4, name: 'c' }, BACKGROUND, PILOTS, gang(mpl), P));
  const r = simulate({ app: sweep(works), grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'workqueue' }, seed: 1, samplePeriodS: P });
  expect(r.finished).toBe(true);
  return r.makespanS;
}

describe('pilot cores on a gang-scheduled cluster', () => {
  it('get the share of their row: 40/60 % in alternating 5 s windows while the other row runs, then 100 %', () => {
    // MPL 2, slice 1: the background job takes row 0, the pilots row 1 (admitted at 0); rows alternate
    // each second, row 0 first. A pilot computes in the odd seconds: [0,5) holds 1 and 3 (40 %), [5,10)
    // 5, 7, 9 (60 %), and so on. The background job's 100th second of CPU is [198,199): it ends at 199,
    // and row 1 keeps the CPUs from then on. By 199 a pilot has had 99 s; it needs 400: it ends at 500.
    const [p] = pilotShares({ cores: 4, name: 'c' }, BACKGROUND, PILOTS, gang(2), P);
    expect([p!.startS, p!.endS]).toEqual([0, 500]);
    const a = p!.availabilityPct[0]!;
    expect(a.length).toBe(100);
    expect(a.slice(0, 4)).toEqual([40, 60, 40, 60]);
    // Window 38 is [190,195): 191, 193 (40 %); window 39 [195,200): 195, 197 and 199 (60 %); then 100 %.
    expect(a.slice(38, 42)).toEqual([40, 60, 100, 100]);
  });

  it('space shared (MPL 1): the pilots wait for the job, then run at 100 %', () => {
    const shares = pilotShares({ cores: 4, name: 'c' }, BACKGROUND, PILOTS, gang(1), P);
    expect(shares.map((p) => [p.startS, p.endS])).toEqual([[100, 500], [100, 500], [100, 500], [100, 500]]);
    expect(new Set(shares.flatMap((p) => p.availabilityPct.flat()))).toEqual(new Set([100]));
  });

  it('a short sweep ends sooner on the gang-scheduled cluster; a long one about as late', () => {
    // 8 works, 2 per pilot core. Gang: the pilots start at 0 at half speed: 50 s of CPU per core takes
    // 100 s. Space sharing: they start at 100 at full speed: 100 + 2 × 25 = 150. Gang a third shorter
    // (transfers of 1 byte add next to nothing).
    const g8 = makespan(2, 8);
    const s8 = makespan(1, 8);
    expect(g8).toBeCloseTo(100, 0);
    expect(s8).toBeCloseTo(150, 0);
    // 24 works, 6 per core (150 s of CPU each). Gang: a pilot core has had 100 s of CPU by 200 (99 by
    // 199, then the whole second): 4 works done at 200; the last 2 at full speed: 250. Space: 100 + 6 × 25
    // = 250. Time sharing creates no capacity: once the sweep outlasts the other job, both end together.
    const g24 = makespan(2, 24);
    const s24 = makespan(1, 24);
    expect(s24).toBeCloseTo(250, 0);
    expect(g24).toBeCloseTo(250, 0);
  });
});
