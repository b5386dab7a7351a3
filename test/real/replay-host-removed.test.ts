// `gridsweep run --replay` when a host is removed from the watched real grid file while the record still
// has Works for it: the replay has no other place for them, so it gives each up once ('host-removed'), the
// other host's Works complete, the run ends with the exit status of a run that gave Works up, and
// `--resume` without --replay runs the given-up Works afterwards.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseApplication, writeGrid } from '../../src/formats/index.js';
import type { GridEvent } from '../../src/model/grid.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { checkRunRecord } from '../support/invariants.js';
import { runGridsweep, spawnGridsweep } from './support/gridsweep-from-source.js';
import { sweepOf } from './support/origin.js';
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

describe('gridsweep run --replay: a host removed from the real grid file', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'] });

  it('gives up the Works the record left on it, once each, ends, and --resume runs them', async () => {
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
    // What the test is about: the record gives h12 Works still queued after its first one is done.
    expect(planned.h12!.length).toBeGreaterThanOrEqual(3);

    const journal = join(origin.dir, 'journal.jsonl');
    const realRecord = join(origin.dir, 'real.jsonl');
    const child = spawnGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--replay', simRecord, '--journal', journal, '--record', realRecord]);
    let stdout = '';
    let stderr = '';
    let removed = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!removed && /^done +task \d+ on h12 /m.test(stdout)) {
        removed = true;
        const g = JSON.parse(fullGrid) as { clusters: { hosts: { name: string }[] }[] };
        for (const c of g.clusters) c.hosts = c.hosts.filter((h) => h.name !== 'h12');
        writeFileSync(gridPath, JSON.stringify(g, null, 2));
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
      new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 40_000))),
    ]);
    clearTimeout(timer);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code, `the run did not end:\n${stdout}`).not.toBe('hung');
    expect(removed).toBe(true);
    expect(stderr).toBe('');

    const record = readRecord(realRecord);
    // Only the checker's rules on failures: a real run's work-done comes after verification, not with the output's arrival.
    expect(checkRunRecord(record, app).filter((v) => / fails on host /.test(v))).toEqual([]);
    const real = computedOn(record);
    const givenUp = record.filter((e) => e.type === 'work-failed' && e.final);
    const notRunOnH12 = planned.h12!.filter((w) => !(real.h12 ?? []).includes(w));
    expect(notRunOnH12.length).toBeGreaterThan(0);
    expect(givenUp.map((e) => (e.type === 'work-failed' ? e.work : -1)).sort((a, b) => a - b)).toEqual([...notRunOnH12].sort((a, b) => a - b));
    expect(givenUp.every((e) => e.type === 'work-failed' && e.reason === 'host-removed' && e.host === 'h12')).toBe(true);
    // h11 did what the record gave it, and only that; h12's Works it finished before leaving are done too.
    expect(real.h11).toEqual(planned.h11);
    const done = new Set(record.flatMap((e) => (e.type === 'work-done' ? [e.work] : [])));
    for (const w of [...planned.h11!, ...(real.h12 ?? [])]) expect(done.has(w)).toBe(true);
    expect(record.at(-1)).toMatchObject({ type: 'run-end', worksDone: 8 - notRunOnH12.length, worksFailed: notRunOnH12.length });

    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`tasks: ${8 - notRunOnH12.length} done and verified, 0 skipped \\(verified before\\), ${notRunOnH12.length} failed, of 8`));
    expect(stdout).toContain(`failed tasks (${notRunOnH12.length}, given up: host h12 was removed from the real grid file): ${[...notRunOnH12].sort((a, b) => a - b).join(' ')}`);

    // The journal lets a normal run (the grid file now names h11 only) finish them.
    const resumedRecord = join(origin.dir, 'resumed.jsonl');
    const resumed = await runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--journal', journal, '--resume', '--record', resumedRecord, '--no-watch']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`tasks: ${notRunOnH12.length} done and verified, ${8 - notRunOnH12.length} skipped \\(verified before\\), 0 failed, of 8`));
    const again = readRecord(resumedRecord);
    expect(again.flatMap((e) => (e.type === 'work-done' ? [e.work] : [])).sort((a, b) => a - b)).toEqual([...notRunOnH12].sort((a, b) => a - b));
    expect(computedOn(again).h12).toBeUndefined();
  }, 120_000);
});
