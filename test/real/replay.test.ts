// `gridsweep run --replay`: a sweep is described (gridsweep describe), simulated on a grid description
// whose names are those of the real grid (gridsweep simulate), then replayed on loopback sshd hosts. The
// real run computes each Work on the host the simulation chose, in the same order per host and per link,
// and its report compares the predicted and actual timelines. A record whose names do not match the real
// grid file is refused before anything runs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGrid } from '../../src/formats/index.js';
import type { GridEvent } from '../../src/model/grid.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { makeOrigin, sweepOf, type Origin } from './support/origin.js';

function readRecord(path: string): RunRecordEvent[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

/** Successful sub-tasks in start order: per host the Works computed, per link the transfers. */
function orders(events: readonly RunRecordEvent[]): { hosts: Record<string, number[]>; links: Record<string, string[]> } {
  const ok = new Set(events.flatMap((e) => (e.type === 'end' && e.ok ? [e.id] : [])));
  const hosts: Record<string, number[]> = {};
  const links: Record<string, string[]> = {};
  for (const e of events) {
    if (e.type !== 'start' || !ok.has(e.id)) continue;
    if (e.resource.type === 'host') (hosts[e.resource.host] ??= []).push(e.work!);
    else (links[e.resource.cluster] ??= []).push(e.kind === 'input' ? `in ${e.file}` : `out ${e.work}`);
  }
  return { hosts, links };
}

describe('gridsweep run --replay SIMRECORD', () => {
  let farm: SshdFarm;
  let origin: Origin;
  let gridPath: string;
  let simRecord: string;

  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h11', 'h12'], c2: ['h21', 'h22'] });
    origin = makeOrigin(sweepOf(5, '0.3'));
    gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, farm.realGridJson(origin.dir));
    // A simulated grid with the real grid's names: c1's link is fast, c2's slower; hosts differ in availability.
    const events: GridEvent[] = [];
    for (const c of farm.clusters) {
      events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: c.name, behavior: `link_${c.name}`, offset: 0 });
      c.hosts.forEach((h, i) => events.push({ kind: 'ADD_HOST', timeS: 0, cluster: c.name, host: h.name, behavior: i === 0 ? 'full' : 'half', offset: 0, arch: 0 }));
    }
    writeGrid(join(origin.dir, 'sim'), 'sim.grid', {
      version: '1',
      events,
      linkBehaviors: new Map([
        ['link_c1', { kind: 'link', name: 'link_c1', samples: [{ latencyMs: 1, bandwidthBps: 50_000_000 }] }],
        ['link_c2', { kind: 'link', name: 'link_c2', samples: [{ latencyMs: 5, bandwidthBps: 5_000_000 }] }],
      ]),
      hostBehaviors: new Map([
        ['full', { kind: 'host', name: 'full', availabilityPct: [100] }],
        ['half', { kind: 'host', name: 'half', availabilityPct: [50] }],
      ]),
    });
    const appPath = join(origin.dir, 'sweep.wd');
    const described = await runGridsweep(['describe', origin.sweepPath, '--grid', gridPath, '-o', appPath]);
    expect(described.code, described.stderr).toBe(0);
    simRecord = join(origin.dir, 'sim.jsonl');
    const simulated = await runGridsweep(['simulate', '--app', appPath, '--grid', join(origin.dir, 'sim', 'sim.grid'), '--record', simRecord]);
    expect(simulated.code, simulated.stderr).toBe(0);
  });
  afterAll(async () => {
    await farm?.stop();
    origin?.remove();
  });

  it('computes each Work on the simulated host, in the simulated order per host and per link, and compares timelines', async () => {
    const realRecord = join(origin.dir, 'real.jsonl');
    const r = await runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--replay', simRecord, '--record', realRecord, '--no-watch']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tasks: 10 done and verified/);
    const sim = orders(readRecord(simRecord));
    const real = orders(readRecord(realRecord));
    expect(Object.keys(sim.hosts).length).toBeGreaterThanOrEqual(2);
    expect(real.hosts).toEqual(sim.hosts);
    expect(real.links).toEqual(sim.links);

    expect(r.stdout).toMatch(/makespan: predicted \d+\.\d\d s, actual \d+\.\d\d s/);
    expect(r.stdout).toMatch(/task start deviation over 10 task\(s\): median \d+\.\d\d s, max \d+\.\d\d s/);
    const end = readRecord(realRecord).at(-1)!;
    expect(end.type).toBe('run-end');
    if (end.type !== 'run-end') return;
    const simEnd = readRecord(simRecord).at(-1)!;
    expect(end.prediction).toMatchObject({ record: simRecord, tasksCompared: 10, sameHostWorks: 10, actualMakespanS: end.makespanS });
    expect(end.prediction!.predictedMakespanS).toBe(simEnd.type === 'run-end' ? simEnd.makespanS : NaN);
    expect(end.prediction!.startDeviationMaxS).toBeGreaterThanOrEqual(end.prediction!.startDeviationMedianS);
  });

  it('--compare: the scheduler plans as usual and the report compares the run with the simulation', async () => {
    const realRecord = join(origin.dir, 'compared.jsonl');
    const r = await runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--compare', simRecord, '--record', realRecord, '--no-watch']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/predicted \(.*sim\.jsonl\) vs actual:\n  makespan: predicted \d+\.\d\d s, actual \d+\.\d\d s/);
    const record = readRecord(realRecord);
    expect(record[0]).toMatchObject({ type: 'header', mode: 'real', heuristic: 'xsufferage' });
    expect(record.at(-1)).toMatchObject({ type: 'run-end', prediction: { tasksCompared: 10 } });
  });

  it('refuses a record whose hosts the real grid file does not name, before anything is written', async () => {
    const onlyC1 = JSON.parse(farm.realGridJson(origin.dir)) as { clusters: { name: string }[] };
    onlyC1.clusters = onlyC1.clusters.filter((c) => c.name === 'c1');
    const smallGrid = join(origin.dir, 'grid-c1.json');
    writeFileSync(smallGrid, JSON.stringify(onlyC1));
    const realRecord = join(origin.dir, 'refused.jsonl');
    const r = await runGridsweep(['run', origin.sweepPath, '--grid', smallGrid, '--replay', simRecord, '--record', realRecord]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/sim\.jsonl:\d+:1: error: the simulation (computed on host "h2[12]"|used the link of cluster "c2"), which the real grid file .*grid-c1\.json does not name/);
    expect(existsSync(realRecord)).toBe(false);
  });
});
