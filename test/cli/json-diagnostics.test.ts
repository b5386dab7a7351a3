// One mistake in a JSON input gives one error, through the real CLI: for real grid files, sweep files,
// experiment specs, batch experiment specs and generator specs, a mistyped key is reported once, at the
// key's own line:column, with "did you mean" and the keys allowed there; a wrong type is reported once.
// Positions are counted by hand from the texts written below (lines from 1, columns from 1).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { schemaFieldLines } from '../../src/sweep/schema-doc.js';
import { GRID_SPEC_SCHEMA, INS2D_SPEC_SCHEMA, MCELL_SPEC_SCHEMA } from '../../src/generators/spec-schemas.js';
import { WORKLOAD_SPEC_SCHEMA } from '../../src/batch/workload-schema.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-json-diag-'));
  cpSync(join(PACKAGE_ROOT, 'apps/examples/sweep-sim'), dir, { recursive: true });
  return dir;
}

function gridsweep(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd });
}

/** The diagnostics' first lines ("file:line:col: error: ..."). */
function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /:\d+:\d+: error: /.test(l));
}

describe('real grid files', () => {
  it('"slot" for "slots": one error at the key, did you mean "slots", the keys allowed there, no word of slurm', () => {
    const dir = workDir();
    // Line 4: `    { "name": "here", "storage": "s", "hosts": { "type": "local", "slot": 2 } }`
    // Counted: 4 spaces, `{ "name": "here", ` to column 22, `"storage": "s", ` to 38, `"hosts": { ` to 49,
    // `"type": "local", ` to 66: "slot" opens at column 67.
    const line4 = '    { "name": "here", "storage": "s", "hosts": { "type": "local", "slot": 2 } }';
    expect(line4.indexOf('"slot"') + 1).toBe(67);
    writeFileSync(join(dir, 'grid.json'), `{\n  "realgrid": 1,\n  "clusters": [\n${line4}\n  ]\n}\n`);
    const r = gridsweep(dir, 'describe', 'sweep.json', '--grid', 'grid.json');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['grid.json:4:67: error: /clusters/0/hosts: unknown property "slot" (did you mean "slots"?)']);
    expect(r.stderr).toContain('expected: one of "type", "slots", "arch"');
    expect(r.stderr).not.toMatch(/slurm/);
  });

  it('a wrong type: one error at the value', () => {
    const dir = workDir();
    const line4 = '    { "name": "here", "storage": "s", "hosts": { "type": "local", "slots": "2" } }';
    writeFileSync(join(dir, 'grid.json'), `{\n  "realgrid": 1,\n  "clusters": [\n${line4}\n  ]\n}\n`);
    const r = gridsweep(dir, 'describe', 'sweep.json', '--grid', 'grid.json');
    expect(r.status).toBe(1);
    const col = line4.indexOf('"2"') + 1; // 75
    expect(errorLines(r.stderr)).toEqual([`grid.json:4:${col}: error: /clusters/0/hosts/slots: must be integer`]);
  });

  it('an unknown host type: one error on "type", did you mean "slurm"', () => {
    const dir = workDir();
    const line4 = '    { "name": "here", "storage": "s", "hosts": { "type": "slurn", "pilots": 2 } }';
    writeFileSync(join(dir, 'grid.json'), `{\n  "realgrid": 1,\n  "clusters": [\n${line4}\n  ]\n}\n`);
    const r = gridsweep(dir, 'describe', 'sweep.json', '--grid', 'grid.json');
    expect(errorLines(r.stderr)).toEqual([`grid.json:4:${line4.indexOf('"slurn"') + 1}: error: /clusters/0/hosts/type: unknown "type" "slurn" (did you mean "slurm"?)`]);
  });
});

describe('sweep files', () => {
  const sweep = (estimates: string) =>
    `{\n  "sweep": 1,\n  "command": ["sh", "sim.sh", "{seed}"],\n  "parameters": { "seed": { "from": 1, "to": 3 } },\n  "estimates": ${estimates}\n}\n`;

  it('a typo in a key: one error on line 5 at the key, with the fix', () => {
    const dir = workDir();
    // Line 5: `  "estimates": { "runTimeS": 1, "outputSizeByte": 10 }`: `"estimates"` is columns 3-13,
    // `{` 16, `"runTimeS"` 18-27, `1` 30, `,` 31: "outputSizeByte" opens at column 33.
    writeFileSync(join(dir, 'bad.json'), sweep('{ "runTimeS": 1, "outputSizeByte": 10 }'));
    const r = gridsweep(dir, 'describe', 'bad.json');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['bad.json:5:33: error: /estimates: unknown property "outputSizeByte" (did you mean "outputSizeBytes"?)']);
    expect(r.stderr).toContain('fix: write "outputSizeBytes"');
  });

  it('a wrong type under a oneOf: one error, not one per branch', () => {
    const dir = workDir();
    // `  "estimates": { "runTimeS": "fast", ...`: `"runTimeS"` is columns 18-27, ":" 28: "fast" opens at column 30.
    writeFileSync(join(dir, 'bad.json'), sweep('{ "runTimeS": "fast", "outputSizeBytes": 10 }'));
    const r = gridsweep(dir, 'describe', 'bad.json');
    expect(errorLines(r.stderr)).toEqual(['bad.json:5:30: error: /estimates/runTimeS: wrong type of value']);
    expect(r.stderr).toContain('expected: a positive number of seconds, or a list of them (one per architecture)');
  });
});

describe('experiment specs', () => {
  const spec = (grids: string, seeds = '"seeds": [1]') =>
    `{\n  "heuristics": ["H1"],\n  "grids": ${grids},\n  "applications": { "a": { "generator": "fig11", "sharedFileSizeKB": 100 } },\n  ${seeds}\n}\n`;

  it('one extra key in an input: one error naming it, none calling "file" unknown', () => {
    const dir = workDir();
    // Line 3: `  "grids": { "g": { "file": "x.grid", "extra": 1 } },`: "extra" opens at column 39.
    writeFileSync(join(dir, 'e.json'), spec('{ "g": { "file": "x.grid", "extra": 1 } }'));
    const r = gridsweep(dir, 'experiment', 'e.json', '--out', 'out');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['e.json:3:39: error: /grids/g: unknown property "extra"']);
    expect(r.stderr).toContain('expected: one of "file"');
  });

  it('"seed" for "seeds": one error, did you mean "seeds"', () => {
    const dir = workDir();
    writeFileSync(join(dir, 'e.json'), spec('{ "g": { "generator": "fig11-grid" } }', '"seed": [1]'));
    const r = gridsweep(dir, 'experiment', 'e.json', '--out', 'out');
    expect(errorLines(r.stderr)).toEqual(['e.json:5:3: error: (top level): unknown property "seed" (did you mean "seeds"?)']);
  });

  it('a wrong type: one error', () => {
    const dir = workDir();
    // "seeds": 5 — 5 is at column 12 of line 5.
    writeFileSync(join(dir, 'e.json'), spec('{ "g": { "generator": "fig11-grid" } }', '"seeds": 5'));
    const r = gridsweep(dir, 'experiment', 'e.json', '--out', 'out');
    expect(errorLines(r.stderr)).toEqual(['e.json:5:12: error: /seeds: wrong type of value']);
  });

  it('a generator spec inside it is checked against that generator\'s schema, at the key', () => {
    const dir = workDir();
    // Line 3: `  "grids": { "g": { "generator": "grid", "spec": { "cluster": [] } } },`: "cluster" opens at column 52.
    writeFileSync(join(dir, 'e.json'), spec('{ "g": { "generator": "grid", "spec": { "cluster": [] } } }'));
    const r = gridsweep(dir, 'experiment', 'e.json', '--out', 'out');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['e.json:3:52: error: /grids/g/spec: unknown property "cluster" (did you mean "clusters"?)']);
  });
});

describe('batch experiment specs', () => {
  it('a typo in a workload entry, and a wrong type in its generator: one error each', () => {
    const dir = workDir();
    writeFileSync(join(dir, 'b.json'), '{\n  "batch": 1,\n  "workloads": { "w": { "fil": "w.swf" } },\n  "policies": "all"\n}\n');
    let r = gridsweep(dir, 'experiment', 'b.json', '--out', 'out');
    expect(r.status).toBe(1);
    // `  "workloads": { "w": { "fil"`: `"workloads"` 3-13, `{` 16, `"w"` 18-20, `{` 23: "fil" opens at column 25.
    expect(errorLines(r.stderr)).toEqual(['b.json:3:25: error: /workloads/w: unknown property "fil" (did you mean "file"?)']);
    writeFileSync(join(dir, 'b.json'), '{\n  "batch": 1,\n  "workloads": { "w": { "generator": { "jobs": "10", "nodes": 2, "coresPerNode": 2 } } },\n  "policies": "all"\n}\n');
    r = gridsweep(dir, 'experiment', 'b.json', '--out', 'out');
    // `"generator"` is columns 25-35, `{` 38, `"jobs"` 40-45, ":" 46: "10" opens at column 48.
    expect(errorLines(r.stderr)).toEqual(['b.json:3:48: error: /workloads/w/generator/jobs: must be integer']);
  });
});

describe('generator specs (gridsweep generate)', () => {
  it('{"clusters": 10}: one error at the value, no TypeError', () => {
    const dir = workDir();
    writeFileSync(join(dir, 'g.json'), '{"clusters": 10}\n');
    const r = gridsweep(dir, 'generate', 'grid', 'g.json', '-o', 'g.grid');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual(['g.json:1:14: error: /clusters: must be array']);
    expect(r.stderr).not.toMatch(/forEach/);
  });

  it('a typo in each kind: one error with "did you mean"', () => {
    const dir = workDir();
    const dist = '{ "kind": "constant", "value": 1 }';
    const shape = `"unsharedInputsPerTask": 0, "unsharedInputSizeBytes": ${dist}, "outputSizeBytes": ${dist}, "runTimeS": ${dist}`;
    const cases: [string, string, string][] = [
      ['swf', '{ "jobs": 10, "nodes": 2, "coresPerNode": 2, "lod": 0.5 }', 'unknown property "lod" (did you mean "load"?)'],
      ['mcell', `{ "chunks": 1, "taskPerChunk": 2, "sharedFileSizeBytes": ${dist}, ${shape} }`, 'unknown property "taskPerChunk" (did you mean "tasksPerChunk"?)'],
      ['ins2d', `{ "tasks": 2, ${shape}, "architecture": 2 }`, 'unknown property "architecture" (did you mean "architectures"?)'],
      ['grid', '{ "clusters": [{ "hosts": [{ "count": 1, "availabilityPct": 100 }], "bandwidthBps": 1, "latencyMS": 1 }] }', 'unknown property "latencyMS" (did you mean "latencyMs"?)'],
    ];
    for (const [kind, text, message] of cases) {
      writeFileSync(join(dir, `${kind}.json`), `${text}\n`);
      const r = gridsweep(dir, 'generate', kind, `${kind}.json`, '-o', `out.${kind}`);
      expect(r.status, kind).toBe(1);
      const lines = errorLines(r.stderr);
      expect(lines, kind).toHaveLength(1);
      expect(lines[0], kind).toContain(message);
    }
  });

  it('a distribution with an unknown kind: one error on "kind"', () => {
    const dir = workDir();
    writeFileSync(join(dir, 'swf.json'), '{ "tasks": 1, "unsharedInputsPerTask": 0, "unsharedInputSizeBytes": { "kind": "uniforn", "min": 1, "max": 2 }, "outputSizeBytes": 1, "runTimeS": 1 }\n');
    const r = gridsweep(dir, 'generate', 'ins2d', 'swf.json', '-o', 'a.app');
    // outputSizeBytes and runTimeS are bare numbers: constants, not mistakes.
    expect(errorLines(r.stderr)).toEqual([expect.stringContaining('/unsharedInputSizeBytes/kind: unknown "kind" "uniforn" (did you mean "uniform"?)')]);
  });

  it('a bare number where a distribution goes is that constant: the same application as {"kind": "constant"}', () => {
    const dir = workDir();
    const spec = (d: (v: number) => string) => `{ "tasks": 5, "unsharedInputsPerTask": 1, "unsharedInputSizeBytes": ${d(2000)}, "outputSizeBytes": ${d(300)}, "runTimeS": ${d(60)} }\n`;
    writeFileSync(join(dir, 'bare.json'), spec((v) => `${v}`));
    writeFileSync(join(dir, 'law.json'), spec((v) => `{ "kind": "constant", "value": ${v} }`));
    for (const name of ['bare', 'law']) expect(gridsweep(dir, 'generate', 'ins2d', `${name}.json`, '-o', `${name}.app`).status, name).toBe(0);
    expect(readFileSync(join(dir, 'bare.app'), 'utf8')).toBe(readFileSync(join(dir, 'law.app'), 'utf8'));
    expect(readFileSync(join(dir, 'bare.app'), 'utf8')).toMatch(/\b60\b/);
  });

  it('a string where a distribution goes: the fix lists the forms a distribution takes, a number first', () => {
    const dir = workDir();
    const dist = '{ "kind": "constant", "value": 1 }';
    writeFileSync(join(dir, 'a.json'), `{ "tasks": 2, "unsharedInputsPerTask": 0, "unsharedInputSizeBytes": ${dist}, "outputSizeBytes": ${dist}, "runTimeS": "300" }\n`);
    const r = gridsweep(dir, 'generate', 'ins2d', 'a.json', '-o', 'a.app');
    expect(r.status).toBe(1);
    expect(errorLines(r.stderr)).toEqual([`a.json:1:${'{ "tasks": 2, "unsharedInputsPerTask": 0, "unsharedInputSizeBytes": , "outputSizeBytes": , "runTimeS": '.length + 2 * dist.length + 1}: error: /runTimeS: wrong type of value`]);
    expect(r.stderr).toContain('fix: write one of: a number V (the constant V), a constant {"kind": "constant", "value": V}, a uniform law {"kind": "uniform", "min": A, "max": B} or a truncated normal law');
    expect(existsSync(join(dir, 'a.app'))).toBe(false);
  });

  it('generate --help lists every field of every generator, from the schemas', () => {
    const r = spawnSync(process.execPath, [cli, 'generate', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const schema of [MCELL_SPEC_SCHEMA, INS2D_SPEC_SCHEMA, GRID_SPEC_SCHEMA, WORKLOAD_SPEC_SCHEMA]) {
      for (const line of schemaFieldLines(schema)) expect(r.stdout).toContain(line.split(' (')[0]);
    }
    expect(r.stdout).toContain('load (default 0.85; number in (0, 10]): offered load');
    expect(r.stdout).toContain('perturbation (default 0; number in [0, 1])');
  });
});
