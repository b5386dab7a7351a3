// `gridsweep run --replay` when a host is removed from the watched real grid file while the record still
// has Works for it: the replay has no other place for them, so it gives each up once ('host-removed'), the
// other host's Works complete, the run ends with the exit status of a run that gave Works up, and
// `--resume` without --replay runs the given-up Works afterwards. The same holds whether the host is up
// when it is removed, or already down (its sshd killed, the run reconnecting to it with back-off).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseApplication, writeGrid } from '../../src/formats/index.js';
import type { Application } from '../../src/model/application.js';
import type { GridEvent } from '../../src/model/grid.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { checkRunRecord } from '../support/invariants.js';
import { runGridsweep, spawnGridsweep } from './support/gridsweep-from-source.js';
import { sweepOf, type Origin } from './support/origin.js';
import { useSshdFarm } from './support/sshd-suite.js';

function readRecord(path: string): RunRecordEvent[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

/** Works whose computation ended OK, per host, in start order. */
function computedOn(events: readonly RunRecordEvent[]): Record<string, number[]> {
  const ok = new Set(events.flatMap((e) => (e.type === 'end' && e.ok ? [e.id] : [])));
  const hosts: Record<string, number[]> = {};
  for (const e of events) if (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' && ok.has(e.id)) (hosts[e.resource.host] ??= []).push(e.work!);
  return hosts;
}

function sorted(works: readonly number[]): number[] {
  return [...works].sort((a, b) => a - b);
}

interface ReplaySetup {
  readonly origin: Origin;
  readonly gridPath: string;
  readonly app: Application;
  readonly simRecord: string;
  /** The Works the simulation computed on each host, in order. */
  readonly planned: Record<string, number[]>;
  /** Rewrites the real grid file without h12. */
  removeH12(): void;
}

/** One step of a scripted run: once `when` matches the run's output (and the steps before it ran), `then` runs. */
interface Step {
  readonly when: RegExp;
  readonly then: () => void;
}

interface RunOutcome {
  readonly code: number | null | 'hung';
  readonly stdout: string;
  readonly stderr: string;
  /** How many steps ran. */
  readonly stepsDone: number;
}

describe('gridsweep run --replay: a host removed from the real grid file', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'] });

  /** A 8-Work sweep, its real grid file (h11, h12 in c1) and the record of its simulation on a grid of those names. */
  async function replaySetup(): Promise<ReplaySetup> {
    const farm = sshd.farm;
    const origin = sshd.makeOrigin(sweepOf(4, '1'));
    const gridPath = join(origin.dir, 'grid.json');
    const fullGrid = farm.realGridJson(origin.dir);
    writeFileSync(gridPath, fullGrid);
    const events: GridEvent[] = [{ kind: 'ADD_CLUSTER', timeS: 0, cluster: 'c1', behavior: 'link', offset: 0 }];
    for (const h of ['h11', 'h12']) events.push({ kind: 'ADD_HOST', timeS: 0, cluster: 'c1', host: h, behavior: 'full', offset: 0, arch: 0 });
    writeGrid(join(origin.dir, 'sim'), 'sim.grid', {
      version: '1',
      events,
      linkBehaviors: new Map([['link', { kind: 'link', name: 'link', samples: [{ latencyMs: 1, bandwidthBps: 50_000_000 }] }]]),
      hostBehaviors: new Map([['full', { kind: 'host', name: 'full', availabilityPct: [100] }]]),
    });
    const appPath = join(origin.dir, 'sweep.wd');
    const described = await runGridsweep(['describe', origin.sweepPath, '--grid', gridPath, '-o', appPath]);
    expect(described.code, described.stderr).toBe(0);
    const app = parseApplication(readFileSync(appPath, 'utf8'), appPath);
    const simRecord = join(origin.dir, 'sim.jsonl');
    const simulated = await runGridsweep(['simulate', '--app', appPath, '--grid', join(origin.dir, 'sim', 'sim.grid'), '--record', simRecord]);
    expect(simulated.code, simulated.stderr).toBe(0);
    const planned = computedOn(readRecord(simRecord));
    // What the tests are about: the record gives h12 Works still queued after its first one is done.
    expect(planned.h12!.length).toBeGreaterThanOrEqual(3);
    const removeH12 = (): void => {
      const g = JSON.parse(fullGrid) as { clusters: { hosts: { name: string }[] }[] };
      for (const c of g.clusters) c.hosts = c.hosts.filter((h) => h.name !== 'h12');
      writeFileSync(gridPath, JSON.stringify(g, null, 2));
    };
    return { origin, gridPath, app, simRecord, planned, removeH12 };
  }

  /** Runs `gridsweep ARGS`, taking `steps` in order as its output allows; 'hung' if it has not ended after `limitS`. */
  async function runScripted(args: readonly string[], steps: readonly Step[], limitS: number): Promise<RunOutcome> {
    const child = spawnGridsweep(args);
    let stdout = '';
    let stderr = '';
    let stepsDone = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      while (stepsDone < steps.length && steps[stepsDone]!.when.test(stdout)) steps[stepsDone++]!.then();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
      new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), limitS * 1000))),
    ]);
    clearTimeout(timer);
    if (code === 'hung') child.kill('SIGKILL');
    return { code, stdout, stderr, stepsDone };
  }

  /**
   * Replays the record, taking `steps` (the last one removes h12 from the grid file), then checks that the
   * run ended, gave up each Work the record still had for h12 exactly once, did all the others, and that
   * `--resume` without --replay runs the given-up ones.
   */
  async function expectGivenUpThenResumed(s: ReplaySetup, steps: readonly Step[]): Promise<void> {
    const journal = join(s.origin.dir, 'journal.jsonl');
    const realRecord = join(s.origin.dir, 'real.jsonl');
    const run = await runScripted(['run', s.origin.sweepPath, '--grid', s.gridPath, '--replay', s.simRecord, '--journal', journal, '--record', realRecord], steps, 40);
    expect(run.code, `the run did not end:\n${run.stdout}`).not.toBe('hung');
    expect(run.stepsDone).toBe(steps.length);
    expect(run.stderr).toBe('');

    const record = readRecord(realRecord);
    // Only the checker's rules on failures: a real run's work-done comes after verification, not with the output's arrival.
    expect(checkRunRecord(record, s.app).filter((v) => / fails on host /.test(v))).toEqual([]);
    const real = computedOn(record);
    const givenUp = record.flatMap((e) => (e.type === 'work-failed' && e.final ? [e] : []));
    const notRunOnH12 = s.planned.h12!.filter((w) => !(real.h12 ?? []).includes(w));
    expect(notRunOnH12.length).toBeGreaterThan(0);
    // Exactly once each: a second give-up of a Work would appear twice in this list.
    expect(sorted(givenUp.map((e) => e.work))).toEqual(sorted(notRunOnH12));
    expect(givenUp.every((e) => e.reason === 'host-removed' && e.host === 'h12')).toBe(true);
    // h11 did what the record gave it, and only that; h12's Works it finished before leaving are done too.
    expect(real.h11).toEqual(s.planned.h11);
    const done = new Set(record.flatMap((e) => (e.type === 'work-done' ? [e.work] : [])));
    for (const w of [...s.planned.h11!, ...(real.h12 ?? [])]) expect(done.has(w)).toBe(true);
    expect(record.at(-1)).toMatchObject({ type: 'run-end', worksDone: 8 - notRunOnH12.length, worksFailed: notRunOnH12.length });

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`tasks: ${8 - notRunOnH12.length} done and verified, 0 skipped \\(verified before\\), ${notRunOnH12.length} failed, of 8`));
    expect(run.stdout).toContain(`failed tasks (${notRunOnH12.length}, given up: host h12 was removed from the real grid file): ${sorted(notRunOnH12).join(' ')}`);

    // The journal lets a normal run (the grid file now names h11 only) finish them.
    const resumedRecord = join(s.origin.dir, 'resumed.jsonl');
    const resumed = await runGridsweep(['run', s.origin.sweepPath, '--grid', s.gridPath, '--journal', journal, '--resume', '--record', resumedRecord, '--no-watch']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`tasks: ${notRunOnH12.length} done and verified, ${8 - notRunOnH12.length} skipped \\(verified before\\), 0 failed, of 8`));
    const again = readRecord(resumedRecord);
    expect(sorted(again.flatMap((e) => (e.type === 'work-done' ? [e.work] : [])))).toEqual(sorted(notRunOnH12));
    expect(computedOn(again).h12).toBeUndefined();
  }

  const h12DidATask = /^done +task \d+ on h12 /m;

  it('up when removed: gives up the Works the record left on it, once each, ends, and --resume runs them', async () => {
    const s = await replaySetup();
    await expectGivenUpThenResumed(s, [{ when: h12DidATask, then: s.removeH12 }]);
  }, 120_000);

  it('already down when removed (its sshd killed): gives them up just the same, and the run ends', async () => {
    const farm = sshd.farm;
    const s = await replaySetup();
    let killed = false;
    const killH12 = (): void => {
      farm.kill('h12');
      killed = true;
    };
    try {
      await expectGivenUpThenResumed(s, [
        { when: h12DidATask, then: killH12 },
        { when: /^down +h12: /m, then: s.removeH12 },
      ]);
    } finally {
      // the farm serves the whole block: h12 comes back for whatever runs after
      if (killed) await farm.restart('h12');
    }
  }, 120_000);
});
