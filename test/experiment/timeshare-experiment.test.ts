// Time-sharing experiments end to end: a small spec (a generated mix and an SWF file of rigid jobs, two
// strategies, two MPLs) runs, writes its files, and gives the same bytes twice; one cell is checked
// against a schedule computed by hand; spec mistakes are errors at file:line:column.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import experiment from '../../src/cli/commands/experiment.js';
import { parseJsonSource } from '../../src/sweep/json-source.js';
import { loadTimeshareExperiment } from '../../src/experiment/timeshare/spec.js';
import { runCount, runTimeshareExperiment } from '../../src/experiment/timeshare/run.js';
import { runTimeshareExperimentParallel } from '../../src/experiment/timeshare/parallel.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-tsexp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two rigid jobs, both submitted at 0 on 2 nodes: job 1 2 tasks × 3 s, job 2 2 tasks × 2 s.
const SWF = ['; MaxNodes: 2', '; MaxProcs: 2', '1 0 -1 3 2 -1 -1 2 3 -1 1 1 1 1 1 -1 -1 -1', '2 0 -1 2 2 -1 -1 2 2 -1 1 1 1 1 1 -1 -1 -1', ''].join('\n');

const SPEC = {
  timeshare: 1,
  name: 'small',
  nodes: 2,
  strategies: {
    gang: { strategy: 'gang', slice: 1, 'context-switch': 0 },
    sb: { strategy: 'spin-block', slice: 1, 'context-switch': 0, spin: 'Infinity' },
  },
  workloads: {
    rigid: { file: 'two.swf' },
    mix: { generator: { jobs: 6, maxTasks: 2, mix: { comm: 1, io: 1 }, classes: { comm: { iterations: [2, 4] }, io: { iterations: [2, 3] } } } },
  },
  mpl: [1, 2],
  seeds: [1, 2],
};

function load(spec: object, name = 'spec.json') {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(spec, null, 2));
  return loadTimeshareExperiment(parseJsonSource(readFileSync(path, 'utf8'), path));
}

describe('a time-sharing experiment', () => {
  writeFileSync(join(dir, 'two.swf'), SWF);

  it('runs every workload × seed × strategy × MPL, with the hand-computed gang schedule in its rows', () => {
    const loaded = load(SPEC);
    // SWF: 1 instance × 2 strategies × 2 MPLs = 4; generated: 1 load × 2 seeds × 2 × 2 = 8.
    expect(runCount(loaded)).toBe(12);
    const out = join(dir, 'out1');
    const r = runTimeshareExperiment(loaded, out);
    expect(r.rows).toHaveLength(12);
    // Gang, MPL 2, slice 1, no switch cost: rows alternate, job 2 ends at 4 and job 1 at 5 (gang-rigid.test.ts
    // works it out): mean response (5 + 4) / 2 = 4.5, the CPUs never idle.
    const gang2 = r.rows.find((x) => x.workload === 'rigid' && x.config === 'gang' && x.mpl === 2)!;
    expect(gang2.meanResponseS).toBe(4.5);
    expect(gang2.makespanS).toBe(5);
    expect(gang2.profile).toEqual({ compute: 1, spin: 0, switch: 0, interrupt: 0, idle: 0 });
    // MPL 1 is space sharing: job 1 runs [0, 3), job 2 [3, 5): responses 3 and 5, mean 4; job 2 waited 3.
    const gang1 = r.rows.find((x) => x.workload === 'rigid' && x.config === 'gang' && x.mpl === 1)!;
    expect([gang1.meanResponseS, gang1.meanWaitS, gang1.load, gang1.seed]).toEqual([4, 1.5, null, null]);
    for (const name of ['results.json', 'results.csv', 'summary.md', 'response-rigid.svg', 'profile-rigid.svg', 'response-mix.svg', 'profile-mix.svg']) {
      expect(r.written).toContain(join(out, name));
    }
    // The plot's x axis is the MPL (the only swept dimension); one line per configuration.
    expect(readFileSync(join(out, 'response-mix.svg'), 'utf8')).toMatch(/multiprogramming level/);
    expect(readFileSync(join(out, 'profile-mix.svg'), 'utf8')).toMatch(/data-part="spin"/);
    // summary.md: means over the two seeds, one line per workload × configuration × MPL (4 + 4).
    expect(readFileSync(join(out, 'summary.md'), 'utf8').trim().split('\n')).toHaveLength(2 + 8);
  });

  it('gives the same bytes twice', () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    runTimeshareExperiment(load(SPEC), a);
    runTimeshareExperiment(load(SPEC), b);
    for (const f of ['results.json', 'results.csv', 'summary.md', 'response-mix.svg', 'profile-rigid.svg']) {
      expect(readFileSync(join(a, f), 'utf8')).toBe(readFileSync(join(b, f), 'utf8'));
    }
  });

  it('gives the same bytes on three worker threads, and reports the rows in order', async () => {
    const seq = join(dir, 'seq');
    const par = join(dir, 'par');
    const order: string[] = [];
    runTimeshareExperiment(load(SPEC), seq);
    await runTimeshareExperimentParallel(load(SPEC), par, 3, (r) => order.push(`${r.workload} ${r.seed} ${r.config} ${r.mpl}`));
    for (const f of ['results.json', 'results.csv', 'summary.md', 'response-mix.svg', 'profile-mix.svg']) {
      expect(readFileSync(join(par, f), 'utf8')).toBe(readFileSync(join(seq, f), 'utf8'));
    }
    expect(order.slice(0, 5)).toEqual(['rigid null gang 1', 'rigid null gang 2', 'rigid null sb 1', 'rigid null sb 2', 'mix 1 gang 1']);
  });

  it('runs from `gridsweep experiment`', async () => {
    const path = join(dir, 'cli.json');
    writeFileSync(path, JSON.stringify({ ...SPEC, workloads: { rigid: SPEC.workloads.rigid } }));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await experiment.run({ values: { out: join(dir, 'cli'), jobs: '2' }, positionals: [path] })).toBe(0);
      const printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toMatch(/^rigid\s+—\s+—\s+gang\s+2\s+1\s+4\.500\s+0\.0\s+0\.0$/m);
      expect(String(err.mock.calls[0]![0])).toMatch(/4 time-sharing runs on 2 nodes, 2 worker thread\(s\)/);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  });
});

describe('a time-sharing experiment whose run stalls', () => {
  it('on worker threads: exit 1 with the run and what to do, not an internal error', () => {
    // A job of 10^7 s in the default 0.1 s slices: the stall guard stops it after 20,000,000 events.
    writeFileSync(join(dir, 'long.swf'), ['; MaxNodes: 4', '; MaxProcs: 4', '1 0 -1 10000000 2 -1 -1 2 10000000 -1 1 1 -1 -1 -1 -1 -1 -1', ''].join('\n'));
    const path = join(dir, 'long.json');
    writeFileSync(path, JSON.stringify({ timeshare: 1, nodes: 4, strategies: { gang: { strategy: 'gang' } }, workloads: { long: { file: 'long.swf' } }, mpl: [2, 3] }));
    const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/src/cli/main.js'), 'experiment', path, '--out', join(dir, 'long-out'), '--jobs', '2'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^gridsweep experiment: time-sharing run [12] of 2 failed: time-sharing simulation stalled at [\d.]+ s: .* needs a longer slice/m);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  }, 150_000);
});

describe('time-sharing experiment specification errors', () => {
  const bad = (patch: object) => () => load({ ...SPEC, ...patch }, 'bad.json');
  it('an unknown strategy parameter, at its configuration', () => {
    expect(bad({ strategies: { g: { strategy: 'gang', spin: 1 } } })).toThrow(/bad\.json:\d+:\d+.*\/strategies\/g: strategy gang has no parameter "spin"/s);
  });
  it('a context switch no shorter than a swept slice', () => {
    expect(bad({ strategies: { g: { strategy: 'local', 'context-switch': 0.2 } }, slice: [0.1, 0.5] })).toThrow(/context-switch \(0\.2 s\) must be shorter than slice \(0\.1 s\)/);
  });
  it('an unknown strategy name, a load with only SWF workloads, a job class mistake', () => {
    expect(bad({ strategies: { g: { strategy: 'gnag' } } })).toThrow(/bad\.json:\d+:\d+/);
    expect(bad({ workloads: { rigid: { file: 'two.swf' } }, load: [0.5] })).toThrow(/\/load: no workload is generated/);
    expect(bad({ workloads: { m: { generator: { jobs: 2, classes: { comm: { iterations: [5, 2] } } } } } })).toThrow(/iterations must be \[min, max\]/);
    expect(bad({ workloads: { m: { generator: { jobs: 2, maxTasks: 4 } } } })).toThrow(/do not fit 2 nodes/);
    expect(bad({ workloads: { r: { rigid: { jobs: 5, nodes: 2, coresPerNode: 2 } } } })).toThrow(/2 × 2 cores do not fit 2 nodes/);
    expect(bad({ workloads: { r: { rigid: { jobs: 5, nodes: 2 } } } })).toThrow(/bad\.json:\d+:\d+.*coresPerNode/s);
  });
});

describe('a generated rigid batch workload', () => {
  it('keeps its own load unless "load" is swept, one instance per seed', () => {
    const spec = { timeshare: 1, nodes: 4, strategies: { gang: { strategy: 'gang', slice: 60 } }, workloads: { r: { rigid: { jobs: 30, nodes: 2, coresPerNode: 2, load: 0.8 } } }, mpl: [1, 3], seeds: [1, 2] };
    const own = runTimeshareExperiment(load(spec, 'rigid.json'), join(dir, 'rigid'));
    expect(own.rows.map((r) => [r.load, r.seed, r.mpl])).toEqual([[null, 1, 1], [null, 1, 3], [null, 2, 1], [null, 2, 3]]);
    for (const r of own.rows) expect(r.jobs).toBe(30);
    const swept = runTimeshareExperiment(load({ ...spec, load: [0.4, 0.9] }, 'rigid2.json'), join(dir, 'rigid2'));
    expect(swept.rows.map((r) => r.load)).toEqual([0.4, 0.4, 0.4, 0.4, 0.9, 0.9, 0.9, 0.9]);
    const at = (l: number, m: number) => swept.rows.filter((r) => r.load === l && r.mpl === m).reduce((a, r) => a + r.meanWaitS, 0);
    // More load, longer waits; more rows, shorter waits.
    expect(at(0.9, 1)).toBeGreaterThan(at(0.4, 1));
    expect(at(0.9, 3)).toBeLessThan(at(0.9, 1));
  });
});
