// The run-record checker itself: a correct record passes, and each kind of broken record is caught.
import { describe, expect, it } from 'vitest';
import type { RunRecordEvent } from '../../src/record/events.js';
import { checkRunRecord } from '../support/invariants.js';
import { addCluster, addHost, makeApp, removeCluster } from './support/build.js';

// Two works on one host: w0 reads f0, writes f2; w1 reads f0 and f1, writes f3.
const app = makeApp([100, 100, 10, 10], [
  { inputs: [0], outputs: [2], runTimeS: [5] },
  { inputs: [0, 1], outputs: [3], runTimeS: [5] },
]);
const link = { type: 'link', cluster: 'c' } as const;
const host = { type: 'host', host: 'h', cluster: 'c' } as const;

function good(): RunRecordEvent[] {
  return [
    { type: 'header', t: 0, gridsweepVersion: 'test', mode: 'sim', heuristic: 'x', seed: 1, inputs: {}, options: {}, taskCount: 2 },
    { type: 'grid', t: 0, event: addCluster(0, 'c', 'L') },
    { type: 'grid', t: 0, event: addHost(0, 'c', 'h', 'full') },
    { type: 'start', t: 0, id: 1, kind: 'input', resource: link, file: 0, sizeBytes: 100 },
    { type: 'end', t: 1, id: 1, ok: true },
    { type: 'start', t: 1, id: 2, kind: 'compute', resource: host, work: 0 },
    { type: 'start', t: 1, id: 3, kind: 'input', resource: link, file: 1, sizeBytes: 100 },
    { type: 'end', t: 2, id: 3, ok: true },
    { type: 'end', t: 6, id: 2, ok: true },
    { type: 'start', t: 6, id: 4, kind: 'compute', resource: host, work: 1 },
    { type: 'start', t: 6, id: 5, kind: 'output', resource: link, work: 0, sizeBytes: 10 },
    { type: 'end', t: 7, id: 5, ok: true },
    { type: 'work-done', t: 7, work: 0, host: 'h' },
    { type: 'end', t: 11, id: 4, ok: true },
    { type: 'start', t: 11, id: 6, kind: 'output', resource: link, work: 1, sizeBytes: 10 },
    { type: 'end', t: 12, id: 6, ok: true },
    { type: 'work-done', t: 12, work: 1, host: 'h' },
    { type: 'run-end', t: 12, makespanS: 12, worksDone: 2, worksFailed: 0 },
  ];
}

/** The good record with the events at `index` replaced by `replacement` (none: removed). */
function broken(index: number, ...replacement: RunRecordEvent[]): RunRecordEvent[] {
  const r = good();
  r.splice(index, 1, ...replacement);
  return r;
}

describe('checkRunRecord', () => {
  it('accepts a correct record', () => {
    expect(checkRunRecord(good(), app)).toEqual([]);
  });

  it('catches two sub-tasks overlapping on a link', () => {
    // The second input starts at 0.5, before the first one ends at 1.
    const r = good();
    r.splice(4, 0, { type: 'start', t: 0.5, id: 9, kind: 'input', resource: link, file: 1, sizeBytes: 100 }, { type: 'end', t: 1, id: 9, ok: true });
    expect(checkRunRecord(r, app)).toEqual([
      't=0.5: input #9 (file 1) starts on link c while input #1 (file 0) still runs there',
    ]);
  });

  it('catches two computations overlapping on a host', () => {
    // w1 starts at 5, before w0 ends at 6.
    const r = good();
    r[8] = { type: 'start', t: 5, id: 4, kind: 'compute', resource: host, work: 1 };
    r[9] = { type: 'end', t: 6, id: 2, ok: true };
    expect(checkRunRecord(r, app).some((v) => v.includes('compute #4 (work 1) starts on host h while compute #2 (work 0) still runs'))).toBe(true);
  });

  it('catches a computation started before its input arrived', () => {
    // w1 needs f1, whose transfer failed.
    const r = broken(7, { type: 'end', t: 2, id: 3, ok: false });
    expect(checkRunRecord(r, app)).toContain("t=6: compute #4 (work 1) starts in cluster 'c' before its input(s) 1 arrived there");
  });

  it('catches a computation in a cluster that was removed, and accepts it once the cluster is back', () => {
    const removed = good();
    removed.splice(9, 0, { type: 'grid', t: 6, event: removeCluster(6, 'c') });
    const v = checkRunRecord(removed, app);
    expect(v).toContain("t=6: compute #4 (work 1) starts in cluster 'c', which is not up");
    expect(v).toContain("t=6: compute #4 (work 1) starts on host 'h', which is not up");

    const back = good();
    back.splice(
      9,
      0,
      { type: 'grid', t: 6, event: removeCluster(6, 'c') },
      { type: 'grid', t: 6, event: addCluster(6, 'c', 'L') },
      { type: 'grid', t: 6, event: addHost(6, 'c', 'h', 'full') },
    );
    expect(checkRunRecord(back, app)).toEqual([]);
  });

  it("catches outputs sent before the work's computation ended OK", () => {
    const r = broken(8, { type: 'end', t: 6, id: 2, ok: false });
    expect(checkRunRecord(r, app)).toContain("t=6: output #5 (work 0) sends outputs from cluster 'c' before the work's computation ended OK there");
  });

  it('catches a work completing twice', () => {
    const r = good();
    r.splice(
      17,
      0,
      { type: 'start', t: 12, id: 7, kind: 'output', resource: link, work: 0, sizeBytes: 10 },
      { type: 'end', t: 13, id: 7, ok: true },
      { type: 'work-done', t: 13, work: 0, host: 'h' },
    );
    r[r.length - 1] = { type: 'run-end', t: 13, makespanS: 13, worksDone: 2, worksFailed: 0 };
    const v = checkRunRecord(r, app);
    expect(v).toContain('work 0: its outputs reached the origin 2 times');
    expect(v).toContain('work 0 completed 2 times');
  });

  it('catches a work that never completed in a run that claims it did', () => {
    const r = good().filter((e) => !(e.type === 'work-done' && e.work === 1));
    const v = checkRunRecord(r, app);
    expect(v).toContain('work 1 never completed, yet the run reports every work done');
    expect(v).toContain('run-end reports 2 works done; the record shows 1');
  });

  it('catches a work-done without its outputs arriving', () => {
    const r = good();
    r.splice(12, 1, { type: 'work-done', t: 6.5, work: 0, host: 'h' });
    expect(checkRunRecord(r, app)).toContain('t=6.5: work-done for work 0 without its outputs arriving at the origin then');
  });

  it('catches a makespan that is not the last output arrival', () => {
    const r = broken(17, { type: 'run-end', t: 14, makespanS: 14, worksDone: 2, worksFailed: 0 });
    expect(checkRunRecord(r, app)).toEqual(["run-end makespan 14 is not the last output's arrival at the origin, t=12"]);
  });

  it('catches a Work failing on a host where it was not computing (queued only, or never started)', () => {
    // At t=1 w0 computes on h; w1 has not started anywhere.
    const r = good();
    r.splice(6, 0, { type: 'work-failed', t: 1, work: 1, host: 'h', reason: 'host-failed', final: false });
    expect(checkRunRecord(r, app)).toEqual(["t=1: work 1 fails on host 'h' (host-failed), but it was not computing there"]);
  });

  it('catches one computation reported failed twice, and outputs lost that were never computed', () => {
    const failures = (r: RunRecordEvent[]) => checkRunRecord(r, app).filter((v) => v.includes(' fails on host '));
    const twice = broken(
      8,
      { type: 'end', t: 6, id: 2, ok: false },
      { type: 'work-failed', t: 6, work: 0, host: 'h', reason: 'exit', final: false },
      { type: 'work-failed', t: 6, work: 0, host: 'h', reason: 'host-failed', final: false },
    );
    expect(failures(twice)).toEqual(["t=6: work 0 fails on host 'h' (host-failed) a second time for computation #2"]);
    const early = good();
    early.splice(6, 0, { type: 'work-failed', t: 1, work: 0, host: 'h', reason: 'outputs-lost', final: false });
    expect(failures(early)).toEqual(["t=1: work 0 fails on host 'h' (outputs-lost), but its computation did not end OK there"]);
  });

  it('accepts a failure of the computation that ended in failure, and outputs lost after it ended OK', () => {
    const failures = (r: RunRecordEvent[]) => checkRunRecord(r, app).filter((v) => v.includes(' fails on host '));
    expect(failures(broken(8, { type: 'end', t: 6, id: 2, ok: false }, { type: 'work-failed', t: 6, work: 0, host: 'h', reason: 'host-failed', final: false }))).toEqual([]);
    const lost = good();
    lost.splice(9, 0, { type: 'work-failed', t: 6, work: 0, host: 'h', reason: 'outputs-lost', final: false });
    expect(failures(lost)).toEqual([]);
  });

  it('catches unpaired sub-tasks, time going back, and a missing header or run-end', () => {
    const unended = broken(15); // output of w1 never ends
    expect(checkRunRecord(unended, app)).toContain('output #6 (work 1) started at t=11 on link c and never ended');
    const stray = broken(15, { type: 'end', t: 12, id: 42, ok: true });
    expect(checkRunRecord(stray, app)).toContain('t=12: end of sub-task 42, which is not running');
    const backwards = broken(4, { type: 'end', t: -1, id: 1, ok: true });
    expect(checkRunRecord(backwards, app)[0]).toMatch(/goes back in time/);
    expect(checkRunRecord(good().slice(1, -1), app)).toEqual(
      expect.arrayContaining(["the first event is 'grid', not the header", "the last event is 'work-done', not run-end"]),
    );
  });
});
