// Every strategy on generated workloads (seeded): the schedule checker finds nothing, every job ends, a run
// is deterministic; gang scheduling with MPL 1 of rigid jobs gives the space-sharing FCFS schedule; the
// metrics' arithmetic; and the strategies' parameters are checked with errors that say what to do.
import { describe, expect, it } from 'vitest';
import { allObservers, type ScheduleObserver } from '../../../src/batch/batch-cluster.js';
import { getAllocator } from '../../../src/batch/allocators/registry.js';
import type { BatchJob } from '../../../src/batch/job.js';
import { getBatchPolicy } from '../../../src/batch/policies/registry.js';
import { simulateTrace } from '../../../src/batch/trace-simulation.js';
import { rigidJob } from '../../../src/batch/timeshare/job-structure.js';
import { coefficientOfVariation } from '../../../src/batch/timeshare/metrics.js';
import { getTimeshareStrategy, listTimeshareStrategies } from '../../../src/batch/timeshare/registry.js';
import { generateStructuredWorkload } from '../../../src/batch/timeshare/workload-generator.js';
import { Rng } from '../../../src/util/rng.js';
import { checkedRun } from './checked-run.js';

const PARAMS = { mpl: 3, slice: 0.02, 'context-switch': 0.0002, interrupt: 0.00005, latency: 0.00002, dma: 0.000005 };
const extra: Record<string, Record<string, number>> = { 'spin-block': { spin: 0.0001 }, boost: { 'boost-period': 0.005 }, demand: {} };

describe('every strategy on a generated mix', () => {
  const jobs = generateStructuredWorkload({ seed: 7, jobs: 60, nodes: 8, mix: { comm: 1, io: 1, cpu: 1 }, load: 0.8 });
  const cases = [...listTimeshareStrategies().map((s) => ({ name: s.name, label: s.name, params: extra[s.name] ?? {} })), { name: 'gang', label: 'gang with alternate scheduling', params: { alternate: 1 } }];
  for (const s of cases) {
    it(`${s.label}: checker clean, all jobs end, deterministic`, () => {
      const a = checkedRun(jobs, 8, s.name, { ...PARAMS, ...s.params });
      expect(a.violations).toEqual([]);
      expect(a.run.jobs).toHaveLength(60);
      for (const j of a.run.jobs) expect(j.endS).toBeGreaterThan(j.startS);
      const b = checkedRun(jobs, 8, s.name, { ...PARAMS, ...s.params });
      expect(b.ends).toEqual(a.ends);
      expect(b.run.events).toBe(a.run.events);
      // Without alternate scheduling, gang runs a job's tasks together: no wait finds its sender descheduled.
      if (s.label === 'gang' || s.label === 'gang-backfill') expect(a.summary.skewedWaits).toBe(0);
      else expect(a.summary.skewedWaits).toBeGreaterThan(0);
    });
  }
});

describe('random configurations (seeded), every one under the checker', () => {
  // Small clusters, short slices, switch costs up to half a slice, interrupts, zero and non-zero latency
  // and DMA, spin thresholds from 0 to Infinity: the checker finds nothing and every job ends.
  it('240 runs: 30 workloads × gang, gang+alternate, local, spin-block, demand, boost, gang-backfill, a dynamic one with mlfq', () => {
    const found: string[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new Rng(seed * 7919);
      const nodes = 2 + rng.int(7);
      const jobs = generateStructuredWorkload({ seed, jobs: 20, nodes, maxTasks: nodes, mix: { comm: rng.next(), io: rng.next(), cpu: rng.next() }, load: 0.5 + rng.next() });
      const cases: [string, Record<string, number>][] = [
        ['gang', {}],
        ['gang', { alternate: 1 }],
        ['local', {}],
        ['spin-block', { spin: rng.pick([0, 0.00005, 0.001, 0.01]) }],
        ['demand', { spin: rng.pick([0, 0.0001, Infinity]) }],
        ['boost', { 'boost-period': rng.pick([0.001, 0.005, 0.02]), spin: rng.pick([0.0002, Infinity]) }],
      ];
      // Cases added later draw from their own generator, so the 180 original runs keep their draws.
      const more = new Rng(seed * 7919 + 1);
      cases.push(
        ['gang-backfill', { alternate: more.int(2), depth: 1 + more.int(4) }],
        // The multilevel feedback queue on a dynamic strategy (its quanta: the slice at the top level, up to
        // ten times it at the bottom, so the switch cost always fits).
        [more.pick(['local', 'spin-block', 'demand', 'boost']), { 'node-scheduler': 1, levels: more.pick([1, 2, 5, 60]), quantumFactor: more.pick([1, 4, 10]) }],
      );
      for (const [i, [name, { quantumFactor, ...extraParams }]] of cases.entries()) {
        const r0 = i < 6 ? rng : more;
        const sliceS = r0.pick([0.001, 0.01, 0.05]);
        if (quantumFactor !== undefined) Object.assign(extraParams, { 'quantum-high': sliceS, 'quantum-low': sliceS * quantumFactor });
        const params = { mpl: 1 + r0.int(4), slice: sliceS, 'context-switch': r0.pick([0, sliceS / 10, sliceS / 2]), interrupt: r0.pick([0, 0.00005, 0.001]), latency: r0.pick([0, 0.00001, 0.001]), dma: r0.pick([0, 0.000005, 0.0005]), ...extraParams };
        const r = checkedRun(jobs, nodes, name, params);
        if (r.violations.length > 0 || r.run.jobs.length !== jobs.length) found.push(`seed ${seed} ${name} ${JSON.stringify(params)}: ${r.run.jobs.length} jobs, ${r.violations.slice(0, 2).join('; ')}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('configurations a wider random draw found', () => {
  // Seeded as above (the same workloads), with parameters another draw picked. Before the fixes: boost —
  // a node left empty settled at a boost due after the last job ended (profile 5.58 s over a 5.569 s
  // makespan); gang + alternate — a compute phase left with 3.5e-15 s by rounding at a row switch, finished
  // after the next switch, was charged by the checker to the next iteration.
  const found: [number, string, Record<string, number>][] = [
    [5, 'boost', { mpl: 3, slice: 0.05, 'context-switch': 0, interrupt: 0.001, latency: 0.00001, dma: 0.000005, 'boost-period': 0.02, spin: 0.0002 }],
    [7, 'gang', { mpl: 4, slice: 0.001, 'context-switch': 0.0005, interrupt: 0.00005, latency: 0, dma: 0.000005, alternate: 1 }],
  ];
  for (const [seed, name, params] of found) {
    it(`seed ${seed} ${name}: checker clean`, () => {
      const rng = new Rng(seed * 7919);
      const nodes = 2 + rng.int(7);
      const jobs = generateStructuredWorkload({ seed, jobs: 20, nodes, maxTasks: nodes, mix: { comm: rng.next(), io: rng.next(), cpu: rng.next() }, load: 0.5 + rng.next() });
      const r = checkedRun(jobs, nodes, name, params);
      expect(r.violations).toEqual([]);
      expect(r.run.jobs).toHaveLength(20);
    });
  }
});

describe('gang scheduling with MPL 1 is space sharing', () => {
  it('rigid jobs end when FCFS on single-core nodes ends them', () => {
    const rng = new Rng(3);
    const batch: BatchJob[] = [];
    let t = 0;
    for (let id = 1; id <= 80; id++) {
      t += rng.int(20);
      const runS = 1 + rng.int(100);
      batch.push({ id, submitS: t, runS, requestedS: runS, cores: 1 + rng.int(8), userId: -1 });
    }
    const ends: Record<number, number> = {};
    const recorder: ScheduleObserver = { started: (s) => (ends[s.job.id] = s.endS) };
    let i = 0;
    simulateTrace({ next: () => batch[i++] }, { nodes: 8, coresPerNode: 1, policy: getBatchPolicy('fcfs'), allocator: getAllocator('first-fit'), observer: allObservers(recorder) });
    const r = checkedRun(batch.map(rigidJob), 8, 'gang', { mpl: 1, slice: 0.5, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual(ends);
  });
});

describe('metrics', () => {
  it('coefficient of variation: population standard deviation over the mean', () => {
    // 1, 2, 3: mean 2, variance (1 + 0 + 1) / 3 = 2/3, CV = sqrt(2/3) / 2.
    expect(coefficientOfVariation([1, 2, 3])).toBeCloseTo(Math.sqrt(2 / 3) / 2, 12);
    expect(coefficientOfVariation([])).toBe(0);
  });

  it('classes: mean response per class and the CV between them', () => {
    const jobs = generateStructuredWorkload({ seed: 1, jobs: 20, nodes: 4, mix: { comm: 1, io: 1 } });
    const r = checkedRun(jobs, 4, 'local', PARAMS);
    const byClass: Record<string, number[]> = {};
    r.run.jobs.forEach((j) => (byClass[j.jobClass!] ??= []).push(j.endS - j.submitS));
    const means = Object.fromEntries(Object.entries(byClass).map(([c, xs]) => [c, xs.reduce((a, b) => a + b, 0) / xs.length]));
    expect(Object.keys(r.summary.classMeanResponseS).sort()).toEqual(['comm', 'io']);
    for (const c of ['comm', 'io']) expect(r.summary.classMeanResponseS[c]).toBeCloseTo(means[c]!, 12);
    expect(r.summary.classResponseCv).toBeCloseTo(coefficientOfVariation([means['comm']!, means['io']!]), 12);
  });
});

describe('strategy parameters', () => {
  it('every strategy has a name, one line of help and the parameters the paper names', () => {
    for (const s of listTimeshareStrategies()) {
      expect(s.help).not.toContain('\n');
      for (const p of ['mpl', 'slice', 'context-switch', 'interrupt']) expect(s.parameters.map((x) => x.name)).toContain(p);
    }
    expect(getTimeshareStrategy('spin-block').parameters.map((p) => p.name)).toContain('spin');
    expect(getTimeshareStrategy('boost').parameters.map((p) => p.name)).toContain('boost-period');
  });

  it('errors say what was expected', () => {
    expect(() => getTimeshareStrategy('gangs')).toThrow('unknown time-sharing strategy "gangs"; expected one of: gang, gang-backfill, local, spin-block, demand, boost');
    expect(() => getTimeshareStrategy('gang').configure({ spin: 1 })).toThrow('strategy gang has no parameter "spin"');
    expect(() => getTimeshareStrategy('local').configure({ mpl: 1.5 })).toThrow('mpl must be a whole number from 1 to 1024, got 1.5');
    expect(() => getTimeshareStrategy('local').configure({ slice: 0.001, 'context-switch': 0.001 })).toThrow('must be shorter than slice');
    expect(() => getTimeshareStrategy('gang').configure({ alternate: 2 })).toThrow('alternate must be a whole number from 0 to 1, got 2');
  });
});
