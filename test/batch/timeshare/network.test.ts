// The interconnect and the NIC by hand, under the schedule checker: latency + bytes / bandwidth, then the
// destination NIC's receive DMA one message after another; and the structured workload generator.
import { describe, expect, it } from 'vitest';
import { receivesCount, sendsTo, uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { generateStructuredWorkload } from '../../../src/batch/timeshare/workload-generator.js';
import { checkedRun } from './checked-run.js';

// One all-to-all job of 3 tasks on 3 nodes, 1 iteration of 1 s, gang (one row, slice 10 s, no switch
// cost): each task sends 2 messages at 1 and waits (spinning) for the 2 addressed to it.
const JOB = [uniformJob({ id: 1, submitS: 0, tasks: 3, iterations: 1, computeS: 1, pattern: 'all-to-all', messageBytes: 1000 })];
const GANG = { mpl: 1, slice: 10, 'context-switch': 0 };

describe('messages across the interconnect', () => {
  it('latency + bytes / bandwidth: both messages in at 1.25, the job ends then (spin .25 per node)', () => {
    // 0.125 s latency + 1000 B / 8000 B/s = 0.25 s; no DMA time.
    const r = checkedRun(JOB, 3, 'gang', { ...GANG, latency: 0.125, bandwidth: 8000, dma: 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.25 });
    expect(r.summary.perNode[2]).toEqual({ computeS: 1, spinS: 0.25, switchS: 0, interruptS: 0, idleS: 0 });
  });

  it('sequential receive DMA: the second message at each NIC waits for the first; the job ends at 1.5', () => {
    // Both messages reach each NIC at 1.25; DMA 0.125 each, one after the other: in memory at 1.375 and
    // 1.5. Each task has both at 1.5: spin .5 per node.
    const r = checkedRun(JOB, 3, 'gang', { ...GANG, latency: 0.125, bandwidth: 8000, dma: 0.125 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.5 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 1, spinS: 0.5, switchS: 0, interruptS: 0, idleS: 0 });
    expect(r.run.messages).toBe(6);
  });

  it('patterns: who sends to whom', () => {
    expect(sendsTo('ring', 0, 4)).toEqual([1, 3]);
    expect(sendsTo('ring', 1, 2)).toEqual([0]);
    expect(receivesCount('ring', 1, 2)).toBe(1);
    expect(sendsTo('tree', 1, 6)).toEqual([3, 4]);
    expect(sendsTo('tree', 2, 6)).toEqual([5]);
    expect([receivesCount('tree', 0, 6), receivesCount('tree', 5, 6)]).toEqual([0, 1]);
    expect(sendsTo('all-to-all', 2, 4)).toEqual([0, 1, 3]);
    expect(sendsTo('none', 0, 4)).toEqual([]);
  });
});

describe('the structured workload generator', () => {
  it('is seeded, and its offered load is what was asked for', () => {
    const a = generateStructuredWorkload({ seed: 5, jobs: 2000, nodes: 32, mix: { comm: 1, io: 1, cpu: 1 }, load: 0.5 });
    expect(generateStructuredWorkload({ seed: 5, jobs: 2000, nodes: 32, mix: { comm: 1, io: 1, cpu: 1 }, load: 0.5 })).toEqual(a);
    // Offered load = compute work / (nodes × span). Per-task compute is uniform ±50 % around the class
    // mean, so the drawn work is within a few per cent of the expected work the gaps were scaled to.
    const work = a.reduce((s, j) => s + j.iterations * j.computeS.reduce((x, y) => x + y, 0), 0);
    const span = a[a.length - 1]!.submitS;
    expect(work / (32 * span)).toBeGreaterThan(0.45);
    expect(work / (32 * span)).toBeLessThan(0.55);
    expect(new Set(a.map((j) => j.jobClass))).toEqual(new Set(['comm', 'io', 'cpu']));
    for (const j of a) expect([2, 4, 8, 16]).toContain(j.tasks);
  });
});
