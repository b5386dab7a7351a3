// Time-sharing through the real command (dist/): `generate parallel`, `trace --timeshare` on a parallel
// workload and on an SWF trace (schedules computed by hand below), its errors (a bad file at
// file:line:column, strategy parameters), and `report` over several runs' JSON. Needs `npx tsc -p tsconfig.json`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseParallelWorkload } from '../../src/formats/parallel-workload.js';
import { listTimeshareStrategies } from '../../src/batch/timeshare/registry.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { findAll, parseXml } from '../plot/xml.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const gs = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: PACKAGE_ROOT });
const dir = mkdtempSync(join(tmpdir(), 'gridsweep-timeshare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const EXAMPLE = 'griddescs/timeshare/small-mix.pwl';

interface Json {
  nodes: number;
  coresPerNode: number;
  jobsSkipped: number;
  timeshare: { strategy: string; parameters: Record<string, number | string> };
  metrics: { jobs: number; makespanS: number; meanResponseS: number; meanWaitS: number; profile: Record<string, number>; perNode: Record<string, number>[]; pace: { mean: number; cv: number }; classMeanResponseS: Record<string, number> };
  violations: string[];
}

describe('gridsweep generate parallel', () => {
  it('writes a seeded comm/io/cpu mix that trace reads; the same seed gives the same file', () => {
    const spec = join(dir, 'mix.json');
    writeFileSync(spec, JSON.stringify({ jobs: 30, nodes: 16, mix: { comm: 1, io: 1, cpu: 1 }, load: 0.7 }));
    const a = join(dir, 'a.pwl');
    const b = join(dir, 'b.pwl');
    expect(gs('generate', 'parallel', spec, '-o', a, '--seed', '7').status).toBe(0);
    expect(gs('generate', 'parallel', spec, '-o', b, '--seed', '7').status).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    const w = parseParallelWorkload(readFileSync(a, 'utf8'), a);
    expect(w.jobs).toHaveLength(30);
    expect(new Set(w.jobs.map((j) => j.jobClass))).toEqual(new Set(['comm', 'io', 'cpu']));
    const r = gs('trace', a, '--nodes', '16', '--timeshare', 'spin-block', '--check');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('checked 30 jobs: no violation');
  });

  it('a bad specification is reported at file:line:column', () => {
    const spec = join(dir, 'bad-spec.json');
    writeFileSync(spec, '{\n  "jobs": 0,\n  "nodes": 16,\n  "mix": {"comm": 1}\n}\n');
    const r = gs('generate', 'parallel', spec, '-o', join(dir, 'x.pwl'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${spec}:2:11`);
  });
});

describe('gridsweep trace --timeshare', () => {
  it('two rigid jobs gang-scheduled with MPL 2 (by hand: job 1 needs 3 s, job 2 1 s, slices of 1 s)', () => {
    // Rows: job 1 in row 0, job 2 in row 1. [0,1) row 0, [1,2) row 1: job 2 ends at 2; row 1 is then empty,
    // so row 0 keeps the CPUs and job 1 ends at 1 + 2 + 1 = 4. Responses 4 and 2 (mean 3); both CPUs compute
    // 4 s each and never idle. Pace: job 1 3/4, job 2 1/2: mean 0.625, sd 0.125, CV 0.2.
    const pwl = join(dir, 'two.pwl');
    writeFileSync(pwl, 'ParallelWorkload 1\nJob 1 submit 0 tasks 2 iterations 1 compute 3\nJob 2 submit 0 tasks 2 iterations 1 compute 1\n');
    const r = gs('trace', pwl, '--nodes', '2', '--timeshare', 'gang', '--mpl', '2', '--slice', '1', '--context-switch', '0', '--check', '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.timeshare).toEqual({ strategy: 'gang', parameters: { mpl: 2, slice: 1, 'context-switch': 0, interrupt: 0.00005, latency: 0.00001, bandwidth: 1e8, dma: 0, alternate: 0 } });
    expect(j.metrics.makespanS).toBe(4);
    expect(j.metrics.meanResponseS).toBe(3);
    expect(j.metrics.profile).toEqual({ computeS: 8, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
    expect(j.metrics.pace.mean).toBeCloseTo(0.625, 12);
    expect(j.metrics.pace.cv).toBeCloseTo(0.2, 12);
    expect(j.violations).toEqual([]);
    expect(r.stderr).toContain('checked 2 jobs: no violation');
  });

  it('an SWF trace runs as rigid jobs (hand.swf: 2 nodes × 4 cores, MPL 1 = space sharing FCFS)', () => {
    // Jobs kept: 1 (2 cores, 100 s), 2 (4 cores at 10 s, 50 s), 4 (3 cores at 30 s, 20 s), 6 (1 core at 40 s,
    // 0 s); 3 and 5 skipped. Job 4 finds 2 free CPUs and waits for job 2 (ends 60): runs 60-80; job 6 waits
    // behind it (FCFS) and starts and ends at 60. Responses 100, 50, 50, 20: mean 55; waits 0, 0, 30, 20:
    // mean 12.5. Compute 2×100 + 4×50 + 3×20 = 460 CPU-s of 8 × 100: idle 340.
    const r = gs('trace', 'test/fixtures/swf/hand.swf', '--timeshare', 'gang', '--mpl', '1', '--slice', '10', '--context-switch', '0', '--check', '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Json;
    expect([j.nodes, j.coresPerNode, j.jobsSkipped, j.metrics.jobs]).toEqual([2, 4, 2, 4]);
    expect(j.metrics.makespanS).toBe(100);
    expect(j.metrics.meanResponseS).toBe(55);
    expect(j.metrics.meanWaitS).toBe(12.5);
    expect(j.metrics.profile).toEqual({ computeS: 460, spinS: 0, switchS: 0, interruptS: 0, idleS: 340 });
    expect(j.metrics.perNode).toHaveLength(8);
  });

  it('every registered strategy runs the example, checked, and reports per class', () => {
    for (const s of listTimeshareStrategies()) {
      const r = gs('trace', EXAMPLE, '--nodes', '8', '--timeshare', s.name, '--check', '--json');
      expect(r.status, `${s.name}: ${r.stderr}`).toBe(0);
      const j = JSON.parse(r.stdout) as Json;
      writeFileSync(join(dir, `${s.name}.json`), r.stdout);
      expect(j.metrics.jobs).toBe(6);
      expect(Object.keys(j.metrics.classMeanResponseS)).toEqual(['comm', 'cpu', 'io']);
      const p = j.metrics.profile;
      expect(p.computeS! + p.spinS! + p.switchS! + p.interruptS! + p.idleS!).toBeCloseTo(8 * j.metrics.makespanS, 6);
    }
    const text = gs('trace', EXAMPLE, '--nodes', '8', '--timeshare', 'boost', '--boost-period', '0.02', '--spin', 'Infinity');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/execution profile {2}compute [\d.]+ %, spin [\d.]+ %, context switch [\d.]+ %, interrupt [\d.]+ %, idle [\d.]+ %/);
    expect(text.stdout).toContain('boost-period 0.02, spin Infinity');
    expect(text.stdout).toMatch(/class comm +mean response/);
  });

  it('a parameter with named choices takes the name or its number: --node-scheduler mlfq is --node-scheduler 1', () => {
    const byName = gs('trace', EXAMPLE, '--nodes', '8', '--timeshare', 'local', '--node-scheduler', 'mlfq', '--json');
    const byNumber = gs('trace', EXAMPLE, '--nodes', '8', '--timeshare', 'local', '--node-scheduler', '1', '--json');
    const roundRobin = gs('trace', EXAMPLE, '--nodes', '8', '--timeshare', 'local', '--json');
    expect(byName.status, byName.stderr).toBe(0);
    expect(byName.stdout).toBe(byNumber.stdout);
    expect(byName.stdout).not.toBe(roundRobin.stdout);
  });

  it('--check on a long SWF trace: clock rounding over thousands of slices is not a violation', () => {
    // background.swf runs jobs of up to ~10^4 s late into a trace of ~10^6 s; with 10 s slices a task
    // computes in about a thousand stretches, each a difference of two clock readings near 10^6 s.
    const r = gs('trace', 'griddescs/batch/background.swf', '--timeshare', 'gang', '--mpl', '2', '--slice', '10', '--check');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('checked 2,000 jobs: no violation');
  });

  it('a bad parallel workload: every mistake at file:line:column, exit 1', () => {
    const r = gs('trace', 'test/fixtures/parallel/bad-fields.pwl', '--nodes', '8', '--timeshare', 'gang');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("test/fixtures/parallel/bad-fields.pwl:3:59: error: unknown communication pattern 'nearest-neighbour'");
    expect(r.stderr).toContain("fix: did you mean 'ring'?");
    expect(r.stdout).toBe('');
    // A job bigger than the cluster is pointed at its task count.
    const small = gs('trace', EXAMPLE, '--nodes', '4', '--timeshare', 'local');
    expect(small.status).toBe(1);
    expect(small.stderr).toContain(`${EXAMPLE}:8:25: error: job 1 has 8 tasks, one per CPU, but the cluster has 4 CPUs`);
  });

  it('a phase longer than the stall guard allows in slices: exit 1 with what to do, not an internal error', () => {
    const path = join(dir, 'long-phase.pwl');
    // 1e15 s of compute in slices of 0.1 s: the guard stops after 20,000,000 events without a phase change.
    writeFileSync(path, 'ParallelWorkload 1\nJob 1 submit 0 tasks 2 iterations 1 compute 1e15\n');
    const r = gs('trace', path, '--nodes', '2', '--timeshare', 'gang');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^gridsweep trace: time-sharing simulation stalled at [\d.]+ s: 20000000 events in a row without any task changing phase .* needs a longer slice \(--slice, or the experiment's "slice"\); if no phase is that long, this is a bug in the engine \(a lost timer\): please report it\.\n$/);
    expect(r.stdout).toBe('');
  });

  it('strategy parameters: out of range, not the strategy\'s, not a number, or without --timeshare: usage errors', () => {
    const cases: [string[], string][] = [
      [['--timeshare', 'gang', '--mpl', '0'], '--timeshare gang: mpl must be a whole number from 1 to 1024, got 0'],
      [['--timeshare', 'gang', '--spin', '0.001'], '--spin does not apply to --timeshare gang; its parameters are --mpl, --slice'],
      [['--timeshare', 'local', '--slice', 'fast'], "--slice takes a number (or Infinity), got 'fast'"],
      [['--timeshare', 'local', '--node-scheduler', 'fifo'], "--node-scheduler takes a number (or Infinity) or one of rr (0), mlfq (1), got 'fifo'"],
      [['--timeshare', 'spin-block', '--slice', '0.001', '--context-switch', '0.002'], 'context-switch (0.002 s) must be shorter than slice (0.001 s)'],
      [['--timeshare', 'gangs'], "unknown --timeshare 'gangs'; expected one of gang, gang-backfill, local"],
      [['--timeshare', 'gang', '--policy', 'easy'], '--policy belongs to space sharing, not to --timeshare'],
      [['--mpl', '2'], '--mpl goes with --timeshare STRATEGY'],
    ];
    for (const [args, message] of cases) {
      const r = gs('trace', EXAMPLE, '--nodes', '8', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(gs('trace', EXAMPLE, '--timeshare', 'gang').stderr).toContain('a parallel workload does not say how big its cluster is; give --nodes');
  });

  it('without --timeshare nothing changes: an SWF is space-shared, a .pwl is refused in one line', () => {
    const r = gs('trace', 'test/fixtures/swf/hand.swf', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ policy: 'fcfs', allocator: 'first-fit' });
    const p = gs('trace', EXAMPLE);
    expect(p.status).toBe(1);
    expect(p.stderr).toContain('this is a parallel workload (.pwl: structured jobs for time-sharing), not an SWF workload');
  });

  it('--help lists every strategy and a flag per parameter of the registry', () => {
    const help = gs('trace', '--help').stdout;
    for (const s of listTimeshareStrategies()) {
      expect(help).toContain(s.name);
      for (const p of s.parameters) expect(help).toContain(`--${p.name}`);
    }
  });
});

describe('gridsweep validate on parallel workloads', () => {
  it('summarises a good one and reports a bad one at file:line:column', () => {
    const r = gs('validate', EXAMPLE, 'test/fixtures/parallel/bad-header.pwl');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(`${EXAMPLE}: parallel workload, 6 jobs, up to 8 tasks (one per CPU), 3 classes (comm, cpu, io)\n`);
    expect(r.stderr).toContain("test/fixtures/parallel/bad-header.pwl:2:1: error: unexpected 'Job' in the parallel workload header");
  });
});

describe('gridsweep report on time-shared runs', () => {
  it('draws one stacked execution-profile bar per run (the JSON files of the test above)', () => {
    const names = listTimeshareStrategies().map((s) => s.name);
    const inputs = names.map((n) => join(dir, `${n}.json`));
    const svgPath = join(dir, 'profile.svg');
    const r = gs('report', ...inputs, '-o', svgPath);
    expect(r.status, r.stderr).toBe(0);
    const svg = parseXml(readFileSync(svgPath, 'utf8'));
    const bars = findAll(svg, (n) => n.name === 'g' && n.attrs['class'] === 'bar');
    expect(bars.map((b) => b.attrs['data-bar'])).toEqual(names);
    for (const [i, bar] of bars.entries()) {
      const j = JSON.parse(readFileSync(inputs[i]!, 'utf8')) as Json;
      const total = Object.values(j.metrics.profile).reduce((a, b) => a + b, 0);
      const shares = Object.fromEntries(bar.children.map((s) => [s.attrs['data-part'], Number(s.attrs['data-share'])]));
      expect(shares['compute']).toBeCloseTo((100 * j.metrics.profile['computeS']!) / total, 3);
      expect(Object.values(shares).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 2);
    }
    const html = join(dir, 'profile.html');
    expect(gs('report', ...inputs, '-o', html).status).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain('Zhang and Sivasubramaniam 2004');
    for (const n of names) expect(page).toContain(`<td>${n}</td>`);
  });

  it('a result with a field missing is reported at its place', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "timeshare": {"strategy": "gang"},\n  "metrics": {"jobs": 1}\n}\n');
    const r = gs('report', bad, '-o', join(dir, 'x.html'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${bad}:3:14: error: metrics.profile.computeS is missing`);
  });
});
