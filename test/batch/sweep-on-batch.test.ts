// A sweep on a batch-managed cluster of the simulated grid: its Works reach the cores only through pilot
// jobs, which wait behind other users' jobs; a pilot whose walltime ends mid-Work loses that Work, which
// runs again. Schedules computed by hand (transfers take no time: 0-byte files on an instant link).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadGrid } from '../../src/formats/index.js';
import type { Application } from '../../src/model/application.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { checkRunRecord } from '../support/invariants.js';
import { checkBatchRecord } from '../../src/batch/record-check.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import { RunState } from '../../src/report/run-state.js';

const FIXTURES = join(PACKAGE_ROOT, 'test/fixtures/batch-grid');

/** `n` Works of `runS` seconds, each writing one empty output. */
function works(n: number, runS: number): Application {
  return {
    files: Array.from({ length: n }, (_, i) => ({ id: i, name: `out${i}`, sizeBytes: 0, estSizeBytes: 0 })),
    works: Array.from({ length: n }, (_, i) => ({ id: i, inputs: [], outputs: [i], runTimeS: [runS], estRunTimeS: [runS] })),
  } as unknown as Application;
}

function run(gridFile: string, app: Application, heuristic: string, submission: { pilots: number; pilotWalltimeS: number; strategy?: 'pilots' | 'per-work' }) {
  const { grid } = loadGrid(join(FIXTURES, gridFile));
  const events: RunRecordEvent[] = [];
  const result = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1, submission: { strategy: 'pilots', ...submission }, record: (e) => events.push(e) });
  expect(checkRunRecord(events, app)).toEqual([]);
  expect(checkBatchRecord(events)).toEqual([]);
  const done = events.filter((e) => e.type === 'work-done').map((e) => (e as { work: number }).work);
  expect([...done].sort((a, b) => a - b)).toEqual(app.works.map((w) => w.id));
  return { result, events };
}

describe('a sweep on a batch cluster', () => {
  for (const heuristic of ['workqueue', 'xsufferage']) {
    it(`${heuristic}: the makespan includes the pilot's wait behind another user's job`, () => {
      // t0: the background job takes both cores until 100; the pilot (2 cores) waits. t100: its two cores
      // join as hosts; 4 Works of 30 s: two rounds, 100–130 and 130–160.
      const { result, events } = run('loaded.grid', works(4, 30), heuristic, { pilots: 1, pilotWalltimeS: 1000 });
      expect(result.makespanS).toBe(160);
      expect(result.reexecutions).toBe(0);
      expect(result.batch).toHaveLength(1);
      expect(result.batch[0]).toMatchObject({ cluster: 'b', pilotsSubmitted: 1, pilotsStarted: 1, pilotMeanWaitS: 100 });
      const added = events.filter((e) => e.type === 'grid' && e.event.kind === 'ADD_HOST').map((e) => [e.t, (e as { event: { host: string } }).event.host]);
      expect(added).toEqual([[100, 'b.pilot1.1'], [100, 'b.pilot1.2']]);
    });

    it(`${heuristic}: no Work is started that cannot end before its pilot does; the next pilot runs it`, () => {
      // Pilot 1 runs 0–40: Works 0 and 1 run 0–30. Work 2 would end at 60, after the pilot: the planner
      // leaves it. Works remain, so pilot 2 is submitted at 40 and starts at once: Work 2 runs 40–70.
      const { result, events } = run('idle.grid', works(3, 30), heuristic, { pilots: 1, pilotWalltimeS: 40 });
      expect(result.makespanS).toBe(70);
      expect(result.reexecutions).toBe(0);
      expect(result.failures).toBe(0);
      expect(result.batch[0]).toMatchObject({ pilotsSubmitted: 2, pilotsStarted: 2, pilotMeanWaitS: 0 });
      const removed = events.filter((e) => e.type === 'grid' && e.event.kind === 'REMOVE_HOST').map((e) => [e.t, (e as { event: { host: string } }).event.host]);
      expect(removed).toEqual([[40, 'b.pilot1.1'], [40, 'b.pilot1.2']]);
    });
  }

  it('the batch metrics count the pilots with the background jobs', () => {
    const { result } = run('loaded.grid', works(4, 30), 'workqueue', { pilots: 1, pilotWalltimeS: 1000 });
    // The background job (no wait) has ended by the time the sweep ends; the pilot is still running.
    expect(result.batch[0]!.metrics.jobs).toBe(1);
    expect(result.batch[0]!.metrics.waitS.mean).toBe(0);
  });

  it('from the command line: the shipped example grid, pilots as flags, the batch figures in --json', () => {
    const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/src/cli/main.js'), 'simulate', '--app', 'apps/fig11/fig11-100kb.app', '--grid', 'griddescs/batch/mixed.grid', '--pilots', '2', '--pilot-cores', '8', '--pilot-walltime', '1800', '--json'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { finished: boolean; worksDone: number; batch: Array<{ cluster: string; pilotsStarted: number; metrics: { jobs: number } }> };
    expect(out).toMatchObject({ finished: true, worksDone: 400 });
    expect(out.batch).toHaveLength(1);
    expect(out.batch[0]!.cluster).toBe('hpc');
    expect(out.batch[0]!.pilotsStarted).toBeGreaterThanOrEqual(2);
  });

  it('records every job: the background job and the pilot, submitted, started and ended, in order', () => {
    const { events } = run('loaded.grid', works(4, 30), 'workqueue', { pilots: 1, pilotWalltimeS: 1000 });
    const jobs = events.filter((e) => e.type === 'job').map((e) => { const j = e as { t: number; job: number; event: string }; return [j.t, j.job, j.event]; });
    // The pilot (job −1) is still running when the sweep ends, so it has no end.
    expect(jobs).toEqual([[0, 1, 'submit'], [0, -1, 'submit'], [0, 1, 'start'], [100, 1, 'end'], [100, -1, 'start']]);
  });

  it('the record checker catches a broken batch schedule', () => {
    const { events } = run('loaded.grid', works(4, 30), 'workqueue', { pilots: 1, pilotWalltimeS: 1000 });
    // Move the pilot's start to t = 50, before the background job's end: both hold the node's 2 cores.
    const isPilotStart = (e: RunRecordEvent) => e.type === 'job' && e.job === -1 && e.event === 'start';
    const pilotStart = events.find(isPilotStart)!;
    const broken = events.filter((e) => !isPilotStart(e));
    const backgroundEnd = broken.findIndex((e) => e.type === 'job' && e.job === 1 && e.event === 'end');
    broken.splice(backgroundEnd, 0, { ...pilotStart, t: 50 } as RunRecordEvent);
    expect(checkBatchRecord(broken)).toEqual(['b: node 0 over-allocated at 50 s: 4 of 2 cores (job -1)']);
  });

  it("the HTML report draws a batch cluster's queue, cores in use, waits and slowdowns", () => {
    // Pilots of 30 s: the 8 Works of 30 s need several, each waiting behind nothing but the previous one.
    const { events } = run('loaded.grid', works(8, 30), 'workqueue', { pilots: 1, pilotWalltimeS: 60 });
    const html = renderHtmlReport(RunState.from(events));
    expect(html).toContain('<h2>Batch clusters</h2>');
    expect(html).toMatch(/<h3>b: 2 cores, fcfs; (\d+) job\(s\) ended \((\d+) of them the sweep's pilots\)<\/h3>/);
    expect(html).toContain('data-series="jobs waiting"');
    expect(html).toContain('data-series="% cores in use"');
    expect(html).toContain(`data-series="other users' jobs" data-group="b"`);
    expect(html).toContain(`data-series="the sweep's pilots" data-group="b"`);
    expect(html).not.toContain('<?xml');
  });

  it('Works longer than the pilots\' walltime: no Work is started, pilots stop after a few, the run ends unfinished', () => {
    const { grid } = loadGrid(join(FIXTURES, 'idle.grid'));
    const result = simulate({ app: works(2, 100), grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, seed: 1, submission: { strategy: 'pilots', pilots: 1, pilotWalltimeS: 40 } });
    expect(result.finished).toBe(false);
    expect(result.worksDone).toBe(0);
    expect(result.reexecutions).toBe(0);
    expect(result.batch[0]).toMatchObject({ pilotsSubmitted: 4, pilotsGivenUp: true });
  });

  for (const heuristic of ['workqueue', 'xsufferage']) {
    it(`${heuristic}: per-Work jobs: one single-core job per Work, each ending as soon as its Work is computed`, () => {
      // Idle cluster of 2 cores, 3 Works of 30 s, at most 3 jobs at once: jobs 1 and 2 start at 0, job 3
      // waits for a core. At 30 Works 0 and 1 are computed, jobs 1 and 2 end, job 3 starts and runs Work 2
      // until 60. No other job is submitted: every Work has one.
      const { result, events } = run('idle.grid', works(3, 30), heuristic, { strategy: 'per-work', pilots: 3, pilotWalltimeS: 100 });
      expect(result.makespanS).toBe(60);
      expect(result.reexecutions).toBe(0);
      expect(result.batch[0]).toMatchObject({ pilotsSubmitted: 3, pilotsStarted: 3 });
      const ends = events.filter((e) => e.type === 'job' && e.event === 'end').map((e) => [e.t, (e as { job: number }).job]);
      expect(ends).toEqual([[30, -1], [30, -2], [60, -3]]);
    });
  }
});
