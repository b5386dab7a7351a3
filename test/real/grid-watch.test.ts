// Editing the real grid file while a run goes on, against real sshd servers and the real Scheduler: a host
// of a new cluster added to the file (saved by rename, as many editors do) joins and computes; an invalid
// edit is reported with file:line:column and ignored; a host removed from the file finishes its task and
// gets no more work, and the Works only queued on it are planned again without being reported as failed;
// a host removed while already down is reported failed again, which changes nothing for this scheduler.
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { runReal, type MakeRealScheduler, type RunLogEvent } from '../../backends/real/runner.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { checkRunRecord } from '../support/invariants.js';
import { sweepOf, type Origin } from './support/origin.js';
import { freshRunInput } from './support/run-input.js';
import { gridWith } from './support/grid-file.js';
import { useSshdFarm } from './support/sshd-suite.js';

/** The Scheduler's options in these runs: a plan a minute, so that plans come from the edits, not the timer. */
const OPTIONS = { ...DEFAULT_SCHEDULER_OPTIONS, planIntervalS: 60 };

/** Runs the origin's sweep on the watched grid file with quick reconnects and a short debounce. */
function runWatched(
  origin: Origin,
  gridPath: string,
  journalPath: string,
  record: (e: RunRecordEvent) => void,
  log: (e: RunLogEvent) => void,
  makeScheduler: MakeRealScheduler = (app, deps) => new Scheduler(app, OPTIONS, deps),
): ReturnType<typeof runReal> {
  return runReal(
    { ...freshRunInput(origin, gridPath, journalPath), scheduler: OPTIONS, record, log, samplePeriodS: 5, reconnectBaseS: 0.5, reconnectMaxS: 2, watchDebounceMs: 150 },
    makeScheduler,
  );
}

type Entry = { readonly from: 'record'; readonly e: RunRecordEvent } | { readonly from: 'log'; readonly e: RunLogEvent };


describe('the real grid file is watched during a run', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'], c2: ['h21'] });
  /** A fresh origin with a sweep of `tasks` Works of `runTimeS` each, and its grid file listing h11 and h12. */
  const startOn11And12 = (tasks: number, runTimeS: string) => {
    const farm = sshd.farm;
    const origin = sshd.makeOrigin(sweepOf(tasks, runTimeS));
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11', 'h12']));
    return { farm, origin, gridPath };
  };

  it('a host added joins and computes; an invalid edit is ignored; a host removed finishes its task and leaves', async () => {
    const { farm, origin, gridPath } = startOn11And12(12, '0.4');
    const timeline: Entry[] = [];
    let invalidWritten = false;
    let removalWritten = false;
    let addWritten = false;
    let clusterRemovalWritten = false;

    const onLog = (e: RunLogEvent): void => {
      timeline.push({ from: 'log', e });
      if (e.kind === 'done' && e.done === 2 && !addWritten) {
        addWritten = true;
        // an editor saving by writing a new file and renaming it over the old one
        writeFileSync(`${gridPath}.swp`, gridWith(farm, origin.dir, ['h11', 'h12', 'h21']));
        renameSync(`${gridPath}.swp`, gridPath);
      }
      if (e.kind === 'done' && e.host === 'h21' && !invalidWritten) {
        invalidWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11', 'h12', 'h21']).replace('"port"', '"prot"'));
      }
      if (e.kind === 'grid-edit' && !e.applied && !removalWritten) {
        removalWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11', 'h21']));
      }
      if (e.kind === 'left' && e.machine === 'h12' && !clusterRemovalWritten) {
        clusterRemovalWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11']));
      }
    };

    const journalPath = join(origin.dir, 'journal.jsonl');
    const result = await runWatched(origin, gridPath, journalPath, (e) => timeline.push({ from: 'record', e }), onLog);

    expect(addWritten && invalidWritten && removalWritten && clusterRemovalWritten).toBe(true);
    expect(result.worksDone).toBe(24);
    expect(result.worksFailed).toEqual([]);
    const verified = readJournal(journalPath).filter((e) => e.type === 'verified').map((e) => e.work);
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(24).keys()]);
    const record = timeline.flatMap((x) => (x.from === 'record' ? [x.e] : []));
    const logs = timeline.flatMap((x) => (x.from === 'log' ? [x.e] : []));

    // The added host joined (a new cluster), was offered to the scheduler and computed tasks.
    expect(record.some((e) => e.type === 'grid' && e.event.kind === 'ADD_CLUSTER' && e.event.cluster === 'c2')).toBe(true);
    expect(record.some((e) => e.type === 'sched' && e.call === 'sched_new_host' && e.hosts?.includes('h21'))).toBe(true);
    const computesOn = (host: string) => record.filter((e) => e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' && e.resource.host === host);
    expect(computesOn('h21').length).toBeGreaterThanOrEqual(1);
    expect(record.some((e) => e.type === 'work-done' && e.host === 'h21')).toBe(true);

    // The invalid edit was reported with its place and ignored.
    const rejected = logs.find((e) => e.kind === 'grid-edit' && !e.applied);
    expect(rejected && rejected.kind === 'grid-edit' ? rejected.message : '').toMatch(/grid\.json:\d+:\d+: error: /);

    // The removed host: nothing started on it after it was told to leave; its running task ended well.
    const leavingAt = timeline.findIndex((x) => x.from === 'log' && x.e.kind === 'leaving' && x.e.machine === 'h12');
    expect(leavingAt).toBeGreaterThan(0);
    const leaving = timeline[leavingAt]!.e as Extract<RunLogEvent, { kind: 'leaving' }>;
    const startsAfter = timeline.slice(leavingAt).filter((x) => x.from === 'record' && x.e.type === 'start' && x.e.resource.type === 'host' && x.e.resource.host === 'h12');
    expect(startsAfter).toEqual([]);
    const h12Starts = computesOn('h12');
    expect(h12Starts.length).toBeGreaterThanOrEqual(1);
    if (leaving.running.length > 0) {
      const last = h12Starts.at(-1)!;
      expect(last.type === 'start' ? last.work : -1).toBe(leaving.running[0]);
      const lastId = last.type === 'start' ? last.id : -1;
      expect(record.find((e) => e.type === 'end' && e.id === lastId)).toMatchObject({ ok: true });
    }
    // ...and then left the scheduler's grid.
    const removeAt = record.findIndex((e) => e.type === 'grid' && e.event.kind === 'REMOVE_HOST' && e.event.host === 'h12');
    expect(removeAt).toBeGreaterThan(0);
    expect(record.some((e) => e.type === 'sched' && e.call === 'sched_host_failed' && e.hosts?.includes('h12'))).toBe(true);
    expect(logs.some((e) => e.kind === 'left' && e.machine === 'h12')).toBe(true);
    // h11 and h21 did the rest after h12 left.
    const hostsAfter = new Set(record.slice(removeAt).flatMap((e) => (e.type === 'start' && e.resource.type === 'host' ? [e.resource.host] : [])));
    expect([...hostsAfter].every((h) => h === 'h11' || h === 'h21')).toBe(true);

    // Removing c2's only host took the whole cluster out once its outputs were back: nothing was lost.
    const c2LeftAt = record.findIndex((e) => e.type === 'grid' && e.event.kind === 'REMOVE_CLUSTER' && e.event.cluster === 'c2');
    expect(c2LeftAt).toBeGreaterThan(removeAt);
    expect(record.some((e) => e.type === 'sched' && e.call === 'sched_disk_failed' && e.clusters?.includes('c2'))).toBe(true);
    expect(record.filter((e) => e.type === 'work-failed')).toEqual([]);
    const c2Starts = record.slice(c2LeftAt).filter((e) => e.type === 'start' && (e.resource.type === 'host' ? e.resource.host === 'h21' : e.resource.cluster === 'c2'));
    expect(c2Starts).toEqual([]);
    expect(readdirSync(join(farm.clusters.find((c) => c.name === 'c2')!.storage, 'gridsweep'))).toEqual([]);
  });

  it('a removed host computing a Work with more queued behind it: the queued ones are planned again, not failed', async () => {
    const { farm, origin, gridPath } = startOn11And12(4, '1');
    const record: RunRecordEvent[] = [];
    let scheduler: Scheduler | undefined;
    let removalWritten = false;
    let leaving: Extract<RunLogEvent, { kind: 'leaving' }> | undefined;
    let queuedOnH12: readonly number[] = [];

    const onLog = (e: RunLogEvent): void => {
      // Both hosts are then computing their second Work (1 s), and the plan queued the rest behind them.
      if (e.kind === 'done' && !removalWritten) {
        removalWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11']));
      }
      if (e.kind === 'leaving' && e.machine === 'h12') {
        leaving = e;
        queuedOnH12 = [...scheduler!.hostFifo('h12')];
      }
    };

    const result = await runWatched(
      origin,
      gridPath,
      join(origin.dir, 'journal.jsonl'),
      (e) => record.push(e),
      onLog,
      (app, deps) => (scheduler = new Scheduler(app, OPTIONS, deps)),
    );

    // What the test is about: h12 was computing when it was removed, with Works queued behind it.
    expect(leaving?.running).toHaveLength(1);
    expect(queuedOnH12.length).toBeGreaterThan(0);

    expect(result.worksDone).toBe(8);
    expect(record.filter((e) => e.type === 'work-failed')).toEqual([]);
    expect(scheduler!.stats).toMatchObject({ workFailures: 0, reExecutions: 0 });
    const computes = (work: number) => record.filter((e) => e.type === 'start' && e.kind === 'compute' && e.work === work);
    for (const work of queuedOnH12) expect(computes(work).map((e) => (e.type === 'start' && e.resource.type === 'host' ? e.resource.host : ''))).toEqual(['h11']);
    // The Work it was computing finished there.
    const last = computes(leaving!.running[0]!);
    expect(last.map((e) => (e.type === 'start' && e.resource.type === 'host' ? e.resource.host : ''))).toEqual(['h12']);
    expect(record.find((e) => e.type === 'end' && last[0]?.type === 'start' && e.id === last[0].id)).toMatchObject({ ok: true });
  });

  it('a host removed while already down (its sshd killed): its Works are done elsewhere, none given up, and the run ends', async () => {
    const { farm, origin, gridPath } = startOn11And12(4, '1');
    const record: RunRecordEvent[] = [];
    let killed = false;
    let removalWritten = false;

    const onLog = (e: RunLogEvent): void => {
      if (e.kind === 'done' && e.host === 'h12' && !killed) {
        killed = true;
        farm.kill('h12');
      }
      if (e.kind === 'down' && e.machine === 'h12' && !removalWritten) {
        removalWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11']));
      }
    };

    let result: Awaited<ReturnType<typeof runReal>>;
    try {
      result = await runWatched(origin, gridPath, join(origin.dir, 'journal.jsonl'), (e) => record.push(e), onLog);
    } finally {
      // the farm serves the whole block: h12 comes back for whatever runs after
      if (killed) await farm.restart('h12');
    }

    // What the test is about: h12 was reported failed when it went down, then again when it was removed.
    expect(removalWritten).toBe(true);
    const failedReports = record.filter((e) => e.type === 'sched' && e.call === 'sched_host_failed' && e.hosts?.includes('h12'));
    expect(failedReports).toHaveLength(2);

    expect(result.worksDone).toBe(8);
    expect(result.worksFailed).toEqual([]);
    expect(checkRunRecord(record, result.expanded.application).filter((v) => / fails on host /.test(v))).toEqual([]);
    // Only the Work h12 was computing when its sshd died failed, not for good, and was done again elsewhere.
    const failures = record.filter((e) => e.type === 'work-failed');
    expect(failures.every((e) => e.type === 'work-failed' && e.reason === 'host-failed' && e.host === 'h12' && !e.final)).toBe(true);
    const firstReport = record.indexOf(failedReports[0]!);
    expect(record.slice(firstReport).some((e) => e.type === 'start' && e.resource.type === 'host' && e.resource.host === 'h12')).toBe(false);
  });
});
