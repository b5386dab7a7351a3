// A host removed from the real grid file while it computes is leaving: it finishes its task, then leaves.
// When its cluster fails meanwhile (here: the outputs of another Work, changed in the cluster's storage
// after the host reported them, fail verification 3 times), the leaving host loses its task and must
// leave then. Against loopback sshd servers, replaying a schedule: the run ends, giving up the Works the
// record still had for the removed host.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReplayPlan } from '../../src/scheduler/replay/replay-plan.js';
import { expandForGrid, runReal, type RunLogEvent } from '../../backends/real/runner.js';
import type { WorkId } from '../../src/model/application.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { checkRunRecord } from '../support/invariants.js';
import { freshRunInput, type FreshRunInput } from './support/run-input.js';
import { gridWith } from './support/grid-file.js';
import { useSshdFarm } from './support/sshd-suite.js';

/**
 * Works 0, 1, 2 run 2 s, 10 s and 0.3 s. Their outputs are padded past what comes back with a task's exit
 * (64 KB), so that they are fetched from the cluster's storage, where the test changes one.
 */
const SWEEP = {
  sweep: 1,
  command: ['sh', '-c', 'sh sim.sh --seed "$1" --model models/small.txt --out "$2" --seconds "$3" && head -c 70000 /dev/zero >> "$2"', 'task', '{seed}', '{out}', '{seconds}'],
  parameters: { seed: [1, 2, 3], seconds: ['2', '10', '0.3'] },
  zip: [['seed', 'seconds']],
  inputs: { program: 'sim.sh', model: 'models/small.txt' },
  outputs: { out: 'results/{seed}.txt' },
  estimates: { runTimeS: 1, outputSizeBytes: 70120 },
};


/**
 * A simulation record (what `gridsweep simulate --record` writes) in which h11 computed Work 0 and h12
 * Works 1 then 2, in cluster c1, after every input was sent.
 */
function writeSimRecord(path: string, run: FreshRunInput): void {
  const app = expandForGrid(run.sweepPath, run.sweep, run.grid).application;
  const timed: { t: number }[] = [];
  let id = 0;
  const subtask = (t: number, fields: object): void => {
    id++;
    timed.push({ type: 'start', t, id, ...fields } as { t: number }, { type: 'end', t: t + 1, id, ok: true } as { t: number });
  };
  const link = { type: 'link', cluster: 'c1' };
  const inputs = [...new Set(app.works.flatMap((w) => w.inputs))];
  inputs.forEach((file, i) => subtask(2 * i, { kind: 'input', resource: link, file, sizeBytes: 100 }));
  const computes: [number, string, WorkId][] = [[10, 'h11', 0], [10, 'h12', 1], [20, 'h12', 2]];
  for (const [t, host, work] of computes) subtask(t, { kind: 'compute', resource: { type: 'host', host, cluster: 'c1' }, work });
  computes.forEach(([t, , work], i) => subtask(t + 5 + 2 * i, { kind: 'output', resource: link, work, sizeBytes: 120 }));
  const events = [
    { type: 'header', t: 0, gridsweepVersion: 'test', mode: 'sim', heuristic: 'by hand', seed: 1, inputs: {}, options: {}, taskCount: app.works.length },
    ...timed.sort((a, b) => a.t - b.t),
    { type: 'run-end', t: 30, makespanS: 30, worksDone: app.works.length, worksFailed: 0 },
  ];
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

/**
 * Sabotages the cluster's storage: the first time a Work's computation on `host` ends well, its output is
 * changed in the storage before it is fetched (the record sink runs before the retrieval is requested), so
 * each fetch fails verification and the cluster is failed.
 */
function corruptFirstOutputOf(host: string, storage: string, outputOf: (work: WorkId) => string): (e: RunRecordEvent) => boolean {
  let runId = '';
  const computeOn = new Map<number, WorkId>();
  let done = false;
  return (e) => {
    if (e.type === 'header') runId = String(e.options.runId);
    if (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' && e.resource.host === host) computeOn.set(e.id, e.work!);
    if (done || e.type !== 'end' || !e.ok || !computeOn.has(e.id)) return false;
    const work = computeOn.get(e.id)!;
    appendFileSync(join(storage, 'gridsweep', runId, 'work', `w${work}.a1`, outputOf(work)), 'changed in storage\n');
    done = true;
    return true;
  };
}

describe('a host leaving the run when its cluster fails', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'] });

  it('replaying: the leaving host leaves with the cluster failure, its Works are given up once each, and the run ends', async () => {
    const farm = sshd.farm;
    const origin = sshd.makeOrigin(SWEEP);
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11', 'h12']));
    const run = freshRunInput(origin, gridPath, join(origin.dir, 'journal.jsonl'));
    const simRecord = join(origin.dir, 'sim.jsonl');
    writeSimRecord(simRecord, run);

    const record: RunRecordEvent[] = [];
    const logs: RunLogEvent[] = [];
    let removalWritten = false;
    let corruptedWhileLeaving = false;
    const tasks = expandForGrid(run.sweepPath, run.sweep, run.grid).tasks;
    const corrupt = corruptFirstOutputOf('h11', farm.clusters[0]!.storage, (work) => tasks[work]!.outputs[0]!.path);
    const onRecord = (e: RunRecordEvent): void => {
      record.push(e);
      if (!removalWritten && e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' && e.resource.host === 'h12') {
        removalWritten = true;
        writeFileSync(gridPath, gridWith(farm, origin.dir, ['h11']));
      }
      if (corrupt(e)) corruptedWhileLeaving = logs.some((l) => l.kind === 'leaving' && l.machine === 'h12' && l.running.length === 1);
    };

    const options = { ...DEFAULT_SCHEDULER_OPTIONS, planIntervalS: 60 };
    const finished = runReal(
      {
        ...run,
        scheduler: options,
        record: onRecord,
        log: (e) => logs.push(e),
        samplePeriodS: 5,
        reconnectBaseS: 0.5,
        reconnectMaxS: 2,
        watchDebounceMs: 100,
        prediction: { plan: loadReplayPlan(simRecord), replay: true },
      },
      (app, deps) => new Scheduler(app, options, deps),
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([finished, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 30_000)))]);
    clearTimeout(timer);
    const story = logs.map((l) => JSON.stringify(l)).join('\n');
    expect(outcome, `the run did not end:\n${story}`).not.toBe('hung');
    if (outcome === 'hung') return;

    // What the test is about: h12 was computing Work 1, leaving, when the cluster failed.
    expect(corruptedWhileLeaving).toBe(true);
    const clusterDown = logs.findIndex((l) => l.kind === 'down' && l.machine === 'c1');
    expect(clusterDown).toBeGreaterThan(0);
    expect(logs.findIndex((l) => l.kind === 'left' && l.machine === 'h12')).toBeGreaterThan(clusterDown);

    // Work 0 was computed again on h11 and brought back; h12's Works were given up, once each.
    expect(outcome.worksDone).toBe(1);
    expect([...outcome.whyFailed.entries()].sort()).toEqual([
      [1, 'given up: host h12 was removed from the real grid file'],
      [2, 'given up: host h12 was removed from the real grid file'],
    ]);
    const givenUp = record.flatMap((e) => (e.type === 'work-failed' && e.final ? [e] : []));
    expect(givenUp.map((e) => [e.work, e.host, e.reason])).toEqual([
      [1, 'h12', 'host-removed'],
      [2, 'h12', 'host-removed'],
    ]);
    // Only the checker's rules on failures: a real run's work-done comes after verification, not with the output's arrival.
    expect(checkRunRecord(record, outcome.expanded.application).filter((v) => / fails on host /.test(v))).toEqual([]);
  }, 60_000);
});
