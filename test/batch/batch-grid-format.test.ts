// ADD_BATCH_CLUSTER in grid descriptions: parsed from real files, written back, and every mistake an error
// at file:line:column that says what was expected.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadGrid, parseGridEvents } from '../../src/formats/index.js';
import { writeGridEvents } from '../../src/formats/grid-events.js';
import type { Application } from '../../src/model/application.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'gs-batch-grid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorsOf(text: string): string {
  try {
    parseGridEvents(text, join(dir, 'g.grid'));
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  return '';
}

describe('ADD_BATCH_CLUSTER', () => {
  it('parses the shipped fixture, with the workload resolved beside the grid file, and writes it back', () => {
    const { grid } = loadGrid(join(PACKAGE_ROOT, 'test/fixtures/batch-grid/loaded.grid'));
    expect(grid.events[0]).toMatchObject({
      kind: 'ADD_BATCH_CLUSTER', cluster: 'b', behavior: 'instant', offset: 0, nodes: 1, coresPerNode: 2, policy: 'fcfs', allocator: 'first-fit', hostBehavior: 'full', arch: 0,
      workload: { path: join(PACKAGE_ROOT, 'test/fixtures/batch-grid/background.swf'), offsetS: 0 },
    });
    expect([...grid.hostBehaviors.keys()]).toEqual(['full']);
    expect([...grid.linkBehaviors.keys()]).toEqual(['instant']);
    const again = parseGridEvents(writeGridEvents('1', grid.events), join(PACKAGE_ROOT, 'test/fixtures/batch-grid/x.grid')).events;
    expect(again.map(({ pos: _p, ...e }) => e)).toEqual(grid.events.map(({ pos: _p, ...e }) => e));
  });

  it('an unknown policy, with the nearest name', () => {
    const msg = errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 4 8 esay first-fit h 0\n');
    expect(msg).toContain("g.grid:2:32: error: unknown batch policy 'esay'");
    expect(msg).toContain('expected: one of fcfs, sjf, ljf, easy, conservative');
  });

  it('a node count that is not a whole number ≥ 1, and an unknown allocator', () => {
    const msg = errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 0 8 easy worst-fit h 0\n');
    expect(msg).toContain('g.grid:2:28: error: node count is below 1');
    expect(msg).toContain("g.grid:2:37: error: unknown allocator 'worst-fit'");
    expect(msg).toContain("fix: did you mean 'first-fit'?");
  });

  it('a missing argument names what the line should hold', () => {
    const msg = errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 4 8 easy first-fit h\n');
    expect(msg).toMatch(/g\.grid:2:\d+: error: /);
  });

  it('hosts of a batch cluster come only from pilots; a missing workload file is named', () => {
    writeFileSync(join(dir, 'l'), '1\n0 1000\n');
    writeFileSync(join(dir, 'h'), '1\n100\n');
    writeFileSync(join(dir, 'bad.grid'), 'GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 2 easy first-fit h 0 nowhere.swf 0\n0: ADD_HOST b b.x h 0 0\n');
    const { grid } = loadGrid(join(dir, 'bad.grid'));
    const app = { files: [{ id: 0, name: 'o', sizeBytes: 0, estSizeBytes: 0 }], works: [{ id: 0, inputs: [], outputs: [0], runTimeS: [1], estRunTimeS: [1] }] } as unknown as Application;
    let msg = '';
    try {
      simulate({ app, grid, scheduler: DEFAULT_SCHEDULER_OPTIONS, seed: 1 });
    } catch (err) {
      msg = (err as Error).message;
    }
    expect(msg).toContain(`bad.grid:2:1: error: batch cluster 'b': no workload file ${join(dir, 'nowhere.swf')}`);
    expect(msg).toContain("bad.grid:3:1: error: host 'b.x' is added to batch cluster 'b', whose hosts are the cores of the sweep's pilot jobs");
  });

  it('takes a mesh or torus in place of the node count, and an allocator with parameters, and writes them back', () => {
    const text = 'GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:4x4x2 2 easy linear:hilbert:best-fit h 0\n5: ADD_BATCH_CLUSTER c l 0 <torus>:<8x8> 1 fcfs random:7 h 0\n';
    const { events } = parseGridEvents(text, join(dir, 'g.grid'));
    expect(events[0]).toMatchObject({ kind: 'ADD_BATCH_CLUSTER', nodes: 32, machine: 'mesh:4x4x2', coresPerNode: 2, allocator: 'linear:hilbert:best-fit' });
    expect(events[1]).toMatchObject({ nodes: 64, machine: 'torus:8x8', allocator: 'random:7' });
    const written = writeGridEvents('1', events);
    expect(written).toContain(' mesh:4x4x2 <2> <easy> linear:hilbert:best-fit ');
    expect(parseGridEvents(written, join(dir, 'g.grid')).events.map(({ pos: _p, ...e }) => e)).toEqual(events.map(({ pos: _p, ...e }) => e));
    // A bag cluster is written as before (the node count, the allocator in brackets), and has no machine.
    const bag = parseGridEvents('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 4 8 easy first-fit h 0\n', join(dir, 'g.grid')).events[0]!;
    expect(bag).not.toHaveProperty('machine');
    expect(writeGridEvents('1', [bag])).toContain(' <4> <8> <easy> <first-fit> ');
  });

  it('a mesh it cannot read, an allocator that does not fit the machine, and an impossible policy pair', () => {
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:4x 1 easy gen-alg h 0\n')).toContain("g.grid:2:28: error: unknown machine 'mesh:4x'");
    const onMesh = errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:4x4 1 easy first-fit h 0\n');
    expect(onMesh).toContain("g.grid:2:44: error: allocator 'first-fit' is for the bag of cores; on mesh:4x4 use linear:row-major:free-list");
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:4x4 1 conservative contiguous h 0\n')).toContain("batch policy 'conservative' plans by counting free cores, which contiguous allocation ('contiguous') cannot promise");
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 4 1 easy gen-alg h 0\n')).toContain("allocator 'gen-alg' places jobs on a mesh or torus");
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:4x4 1 easy linear:zigzag h 0\n')).toContain("linear: unknown curve 'zigzag'");
  });

  it('gang:MPL, after the workload or without one, is parsed and written back; without it nothing changes', () => {
    const text = 'GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 fcfs first-fit h 0 w.swf 5 gang:2\n3: ADD_BATCH_CLUSTER c l 0 2 2 fcfs first-fit h 0 gang:<3>\n';
    const { events } = parseGridEvents(text, join(dir, 'g.grid'));
    expect(events[0]).toMatchObject({ kind: 'ADD_BATCH_CLUSTER', policy: 'fcfs', gangMpl: 2, workload: { path: join(dir, 'w.swf'), offsetS: 5 } });
    expect(events[1]).toMatchObject({ cluster: 'c', gangMpl: 3 });
    expect(events[1]).not.toHaveProperty('workload');
    const written = writeGridEvents('1', events);
    expect(written).toContain(' <5> gang:2\n');
    expect(parseGridEvents(written, join(dir, 'g.grid')).events.map(({ pos: _p, ...e }) => e)).toEqual(events.map(({ pos: _p, ...e }) => e));
    const plain = parseGridEvents('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 fcfs first-fit h 0\n', join(dir, 'g.grid')).events[0]!;
    expect(plain).not.toHaveProperty('gangMpl');
    expect(writeGridEvents('1', [plain])).not.toContain('gang');
  });

  it('gang:MPL with an MPL below 1, another policy, or a mesh: errors at file:line:column', () => {
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 fcfs first-fit h 0 gang:0\n')).toContain('g.grid:2:56: error: gang MPL is below 1');
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 fcfs first-fit h 0 gang:1.5\n')).toMatch(/g\.grid:2:56: error: gang MPL/);
    const easy = errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 easy first-fit h 0 gang:2\n');
    expect(easy).toContain("g.grid:2:32: error: a gang-scheduled batch cluster admits jobs first come first served; policy 'easy' does not apply");
    expect(easy).toContain("expected: 'fcfs' with gang:MPL");
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:2x2 1 fcfs linear:row-major:free-list h 0 gang:2\n')).toContain('g.grid:2:75: error: gang:MPL needs the bag of cores, not mesh:2x2');
    expect(errorsOf('GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 1 4 fcfs first-fit h 0 gang:\n')).toMatch(/g\.grid:2:\d+: error: /);
  });

  it('a sweep through pilots on a mesh batch cluster finishes, its jobs on whole nodes', () => {
    writeFileSync(join(dir, 'l'), '1\n0 1000000\n');
    writeFileSync(join(dir, 'h'), '1\n100\n');
    writeFileSync(join(dir, 'mesh.grid'), 'GridDescription 1\n0: ADD_BATCH_CLUSTER b l 0 mesh:2x2 2 easy gen-alg h 0\n');
    const { grid } = loadGrid(join(dir, 'mesh.grid'));
    const works = Array.from({ length: 8 }, (_, i) => ({ id: i, inputs: [], outputs: [0], runTimeS: [10], estRunTimeS: [10] }));
    const app = { files: [{ id: 0, name: 'o', sizeBytes: 0, estSizeBytes: 0 }], works } as unknown as Application;
    const r = simulate({ app, grid, scheduler: DEFAULT_SCHEDULER_OPTIONS, seed: 1 });
    expect(r.finished).toBe(true);
    expect(r.worksDone).toBe(8);
  });
});
