// The wrong kind of file, through the real CLI: each of gridsweep's own file kinds is recognised from its
// first bytes, and a command given another kind says in one line what the file is and which command takes
// it (instead of diagnosing it as a broken file of the kind it wanted). The files are made by gridsweep
// itself (simulate --record, experiment, generate swf, trace --allocation-log), not written by hand.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { sniffFileKind, sniffText } from '../../src/formats/file-kind.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
let dir = '';

function gridsweep(...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
}

function mustRun(...args: string[]): void {
  const r = gridsweep(...args);
  if (r.status !== 0) throw new Error(`gridsweep ${args.join(' ')} failed: ${r.stderr}`);
}

/** The non-empty lines of standard error. */
function stderrLines(r: { stderr: string }): string[] {
  return r.stderr.split('\n').filter((l) => l.trim() !== '');
}

const APP = join(PACKAGE_ROOT, 'apps/fig11/fig11-100kb.app');
const GRID = join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gridsweep-file-kind-'));
  cpSync(join(PACKAGE_ROOT, 'apps/examples/sweep-sim'), join(dir, 'sweep-sim'), { recursive: true });
  const dist = (v: number) => ({ kind: 'constant', value: v });
  const spec = {
    heuristics: ['H1'],
    grids: { g: { generator: 'grid', spec: { clusters: [{ hosts: [{ count: 2, availabilityPct: 100 }], bandwidthBps: 100000, latencyMs: 1 }] } } },
    applications: { a: { generator: 'ins2d', spec: { tasks: 4, unsharedInputsPerTask: 1, unsharedInputSizeBytes: dist(1000), outputSizeBytes: dist(100), runTimeS: dist(10) } } },
    seeds: [1],
  };
  writeFileSync(join(dir, 'exp.json'), JSON.stringify(spec, null, 2));
  mustRun('experiment', 'exp.json', '--out', 'exp-out', '--jobs', '1');
  mustRun('simulate', '--app', APP, '--grid', GRID, '--record', 'rec.jsonl');
  writeFileSync(join(dir, 'wl.json'), JSON.stringify({ jobs: 40, nodes: 16, coresPerNode: 1 }));
  mustRun('generate', 'swf', 'wl.json', '-o', 'w.swf');
  mustRun('trace', 'w.swf', '--machine', 'mesh:4x4', '--allocation-log', 'w.alloc');
  writeFileSync(join(dir, 'batch.json'), JSON.stringify({ batch: 1, workloads: { w: { file: 'w.swf' } }, policies: ['fcfs'], allocators: ['first-fit'] }));
  mustRun('experiment', 'batch.json', '--out', 'batch-out');
});

describe('the sniffer knows every kind gridsweep writes or reads', () => {
  it('names each file by its first bytes', () => {
    const at = (p: string) => sniffFileKind(join(dir, p));
    expect(at('rec.jsonl')).toBe('run-record');
    expect(at('exp-out/results.json')).toBe('experiment-results');
    expect(at('exp-out/results.csv')).toBe('experiment-results-csv');
    expect(at('batch-out/results.json')).toBe('batch-experiment-results');
    expect(at('exp.json')).toBe('experiment-spec');
    expect(at('batch.json')).toBe('batch-experiment-spec');
    expect(at('wl.json')).toBe('swf-spec');
    expect(at('w.swf')).toBe('swf');
    expect(at('w.alloc')).toBe('allocation-log');
    expect(at('sweep-sim/sweep.json')).toBe('sweep');
    expect(at('sweep-sim/grid-local.json')).toBe('real-grid');
    expect(at('sweep-sim/grid-ssh.json')).toBe('real-grid');
    expect(sniffFileKind(APP)).toBe('application');
    expect(sniffFileKind(GRID)).toBe('grid');
    expect(sniffFileKind(join(PACKAGE_ROOT, 'no-such-file'))).toBe('unknown');
  });

  it('names the generator specs, and leaves what it cannot tell to the command', () => {
    expect(sniffText('{"chunks": 2, "tasksPerChunk": 3}', true)).toBe('mcell-spec');
    expect(sniffText('{"tasks": 2, "runTimeS": {"kind": "constant", "value": 1}}', true)).toBe('ins2d-spec');
    expect(sniffText('{"clusters": [{"hosts": [], "bandwidthBps": 1, "latencyMs": 1}]}', true)).toBe('grid-spec');
    // A real grid file that forgot "realgrid" is still a real grid (its clusters have storage).
    expect(sniffText('{"clusters": [{"name": "a", "storage": "/s", "hosts": {"type": "local", "slots": 1}}]}', true)).toBe('real-grid');
    // {"clusters": 10} could be either: unknown, so that `generate grid` reports the schema error.
    expect(sniffText('{"clusters": 10}', true)).toBe('unknown');
    // Time-sharing: a parallel workload spec has a mix, a trace --timeshare --json result its strategy and metrics.
    expect(sniffText('{"jobs": 10, "nodes": 8, "mix": {"comm": 1}}', true)).toBe('parallel-spec');
    expect(sniffText('{"workload": "w.pwl", "timeshare": {"strategy": "gang"}, "metrics": {}}', true)).toBe('timeshare-result');
    expect(sniffText('# a comment\n\nParallelWorkload 1\nJob 1 submit 0 tasks 1 iterations 1 compute 1\n', true)).toBe('parallel-workload');
    // A file cut at 64 KiB is judged by its top-level keys alone.
    expect(sniffText('{"header": {"a": {"rows": 1}}, "rows": [{"x": 1', false)).toBe('experiment-results');
    expect(sniffText('{"a": {"heuristics": 1}, "b": [', false)).toBe('unknown');
  });
});

describe('a command given the wrong kind of file says so in one line', () => {
  it("report, given an experiment's results.json: one line naming it and `gridsweep plot`", () => {
    const r = gridsweep('report', 'exp-out/results.json', '-o', 'out.html');
    expect(r.status).toBe(1);
    expect(stderrLines(r)).toEqual([
      "exp-out/results.json:1:1: error: this is an experiment's results (results.json), not a run record: `gridsweep report` cannot read it; give it to `gridsweep plot RESULTS.json -o OUT.svg`",
    ]);
    expect(existsSync(join(dir, 'out.html'))).toBe(false);
  });

  it('simulate, trace, experiment, validate, describe, run, map, plot and generate each name the file and its command', () => {
    const cases: [string[], string][] = [
      [['simulate', '--app', 'rec.jsonl', '--grid', GRID], 'this is a run record (JSON Lines, from simulate --record or run --record), not an application description (.app)'],
      [['simulate', '--app', APP, '--grid', APP], 'this is an application description (.app), not a grid description (.grid)'],
      [['trace', 'exp-out/results.json'], "this is an experiment's results (results.json), not an SWF workload"],
      [['trace', 'wl.json'], 'this is a batch workload generator specification, not an SWF workload: `gridsweep trace` cannot read it; give it to `gridsweep generate swf FILE -o OUT.swf`'],
      [['experiment', 'sweep-sim/sweep.json'], 'this is a sweep file, not an experiment specification'],
      [['experiment', 'batch-out/results.json'], "this is a batch experiment's results (results.json), not an experiment specification"],
      [['validate', 'w.swf'], 'this is an SWF batch workload, not a grid or application description: `gridsweep validate` cannot read it; give it to `gridsweep trace FILE`'],
      [['describe', 'sweep-sim/grid-local.json'], 'this is a real grid file, not a sweep file'],
      [['run', 'sweep-sim/sweep.json', '--grid', 'exp.json'], 'this is an experiment specification, not a real grid file: `gridsweep run --grid` cannot read it; give it to `gridsweep experiment FILE`'],
      [['map', 'w.swf', '--pattern', 'ring'], 'this is an SWF batch workload, not an allocation log'],
      [['plot', 'w.alloc', '-o', 'x.svg'], "this is an allocation log (from trace --allocation-log), not an experiment's results.json: `gridsweep plot --kind line` cannot read it; give it to `gridsweep map FILE --pattern P`"],
      [['generate', 'grid', 'wl.json', '-o', 'x.grid'], 'this is a batch workload generator specification, not a grid generator specification'],
      [['report', 'rec.jsonl.missing', '-o', 'x.html'], 'ENOENT'],
    ];
    for (const [args, text] of cases) {
      const r = gridsweep(...args);
      expect(r.status, args.join(' ')).toBe(1);
      if (text === 'ENOENT') continue; // a missing file is not a kind: the command's own message stays
      expect(stderrLines(r), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toContain(text);
    }
  });

  it('an experiment names the entry whose file is of the wrong kind, and where it belongs', () => {
    writeFileSync(join(dir, 'swapped.json'), JSON.stringify({ heuristics: ['H1'], grids: { g: { file: APP } }, applications: { a: { file: GRID } }, seeds: [1] }));
    let r = gridsweep('experiment', 'swapped.json', '--out', 'swapped-out', '--jobs', '1');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('this is an application description (.app), not a grid description (.grid); list it under "applications"');
    writeFileSync(join(dir, 'batch-wrong.json'), JSON.stringify({ batch: 1, workloads: { w: { file: 'rec.jsonl' } }, policies: ['fcfs'] }));
    r = gridsweep('experiment', 'batch-wrong.json', '--out', 'batch-wrong-out');
    expect(r.status).toBe(1);
    // The one-line spec {"batch":1,"workloads":{"w":{"file":"rec.jsonl"}},...}: `{"batch":1,` is columns 1-11,
    // `"workloads":` 12-23, `{` 24, `"w":` 25-28, `{` 29, `"file":` 30-36: the value opens at column 37.
    expect(r.stderr).toContain('batch-wrong.json:1:37: error: rec.jsonl: this is a run record (JSON Lines, from simulate --record or run --record), not an SWF workload');
  });

  it('the right kinds are still taken: report a run record, plot results.json and a run record without --kind', () => {
    expect(gridsweep('report', 'rec.jsonl', '-o', 'ok.html').status).toBe(0);
    expect(gridsweep('plot', 'exp-out/results.json', '-o', 'ok.svg').status).toBe(0);
    // A run record named .json (not .jsonl) is recognised as one: plot draws its Gantt chart.
    writeFileSync(join(dir, 'rec-copy.json'), readFileSync(join(dir, 'rec.jsonl')));
    const r = gridsweep('plot', 'rec-copy.json', '-o', 'gantt.svg');
    expect(r.status, r.stderr).toBe(0);
    expect(gridsweep('validate', APP, GRID).status).toBe(0);
  });
});
