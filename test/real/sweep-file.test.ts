// Sweep files: schema errors with file:line:column, expansion (ranges, lists, cartesian product, zipped
// groups, shared inputs, literal parameter values), and `describe` producing a WorkDescription the
// project's own parser reads back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseApplication } from '../../src/formats/index.js';
import { expandSweep } from '../../src/sweep/expand.js';
import { parseSweep } from '../../src/sweep/sweep-file.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { DEFAULT_DEADLINES } from '../../backends/transport/deadline.js';
import { EXAMPLE_DIR } from './support/origin.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sweep-'));
writeFileSync(join(dir, 'shared.dat'), 'x'.repeat(1000));
writeFileSync(join(dir, 'a.in'), 'aa');
writeFileSync(join(dir, 'b.in'), 'bbbb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorsOf(text: string, file = 'sweep.json'): string {
  try {
    expandSweep(parseSweep(text, file), { originDir: dir });
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  throw new Error('expected an InputError');
}

const base = {
  sweep: 1,
  command: ['prog', '--x', '{x}'],
  parameters: { x: [1, 2] },
  estimates: { runTimeS: 5, outputSizeBytes: 10 },
};

describe('sweep file errors', () => {
  it('names line and column of a JSON syntax error', () => {
    expect(errorsOf('{\n  "sweep": 1,\n  "command": [1 2]\n}')).toMatch(/^sweep\.json:3:17: error: invalid JSON: expected "," or "]"/);
  });

  it('names the JSON path, the place, what was found and the fix for schema errors', () => {
    const text = JSON.stringify({ ...base, estimates: { runTimeS: -1, outputSizeBytes: 10 }, comand: [] }, null, 2);
    const msg = errorsOf(text);
    expect(msg).toMatch(/sweep\.json:\d+:\d+: error: \(top level\): unknown property "comand"/);
    expect(msg).toMatch(/\/estimates\/runTimeS/);
    expect(msg).toContain('fix:');
    const line = text.split('\n').findIndex((l) => l.includes('"runTimeS"')) + 1;
    expect(msg).toContain(`sweep.json:${line}:`);
  });

  it('rejects a command that is a string rather than an argv', () => {
    expect(errorsOf(JSON.stringify({ ...base, command: 'prog --x {x}' }))).toMatch(/\/command: must be array[\s\S]*expected: the command as an array of arguments/);
  });

  it('reports unknown placeholders, bad zips, output collisions, unsafe paths and missing inputs', () => {
    expect(errorsOf(JSON.stringify({ ...base, command: ['prog', '{y}'] }))).toMatch(/unknown placeholder \{y\}/);
    expect(errorsOf(JSON.stringify({ ...base, parameters: { x: [1, 2], y: [1] }, zip: [['x', 'y']] }))).toMatch(/different numbers of values/);
    expect(errorsOf(JSON.stringify({ ...base, outputs: { o: 'out.txt' } }))).toMatch(/tasks 0 and 1 would both write "out.txt"/);
    expect(errorsOf(JSON.stringify({ ...base, outputs: { o: '../out-{x}.txt' } }))).toMatch(/not a relative path inside the origin/);
    expect(errorsOf(JSON.stringify({ ...base, inputs: { i: 'missing-{x}.in' } }))).toMatch(/input "missing-1.in" cannot be read/);
    expect(errorsOf(JSON.stringify({ ...base, parameters: { x: { from: 5, to: 1, step: 1 } } }))).toMatch(/has no values/);
  });

  it('an input that cannot be read is one error, however many tasks read it, saying why', () => {
    mkdirSync(join(dir, 'a-folder.in'), { recursive: true });
    const many = { ...base, parameters: { x: { from: 1, to: 12 } } };
    const missing = errorsOf(JSON.stringify({ ...many, inputs: { i: 'nowhere.in' } }, null, 2));
    expect(missing.split('\n')).toEqual([`sweep.json:19:10: error: input "nowhere.in" cannot be read in the origin directory ${dir} (no such file)`, '  fix: create the file or correct the path template']);
    const folder = errorsOf(JSON.stringify({ ...many, inputs: { i: 'a-folder.in' } }, null, 2));
    expect(folder.split('\n')[0]).toBe(`sweep.json:19:10: error: input "a-folder.in" cannot be read in the origin directory ${dir} (it is a folder)`);
  });
});

describe('sweep expansion', () => {
  it('builds the cartesian product (first parameter slowest) with zipped groups and ranges', () => {
    const sweep = {
      ...base,
      command: ['prog', '{a}', '{b}', '{c}', '{task}'],
      parameters: { a: { from: 10, to: 6, step: -2 }, b: ['p', 'q'], c: [true, 2.5] },
      zip: [['b', 'c']],
    };
    const x = expandSweep(parseSweep(JSON.stringify(sweep), 's.json'), { originDir: dir });
    expect(x.tasks.map((t) => t.argv.slice(1))).toEqual([
      ['10', 'p', 'true', '0'],
      ['10', 'q', '2.5', '1'],
      ['8', 'p', 'true', '2'],
      ['8', 'q', '2.5', '3'],
      ['6', 'p', 'true', '4'],
      ['6', 'q', '2.5', '5'],
    ]);
  });

  it('makes one shared File per input path and one File per output, with real input sizes', () => {
    const sweep = {
      ...base,
      command: ['prog', '{data}', '{own}', '{out}'],
      parameters: { x: ['a', 'b'], n: [1, 2] },
      inputs: { data: 'shared.dat', own: '{x}.in' },
      outputs: { out: 'res/{x}-{n}.txt' },
      estimates: { runTimeS: [5, 7], outputSizeBytes: 10 },
    };
    const x = expandSweep(parseSweep(JSON.stringify(sweep), 's.json'), { originDir: dir, architectures: 2 });
    const app = x.application;
    expect(app.works).toHaveLength(4);
    expect(x.filePaths.slice(0, 3)).toEqual(['shared.dat', 'a.in', 'b.in']);
    expect(app.files.slice(0, 3).map((f) => f.sizeBytes)).toEqual([1000, 2, 4]);
    expect(app.works.map((w) => w.inputs)).toEqual([[0, 1], [0, 1], [0, 2], [0, 2]]);
    expect(app.works.map((w) => w.outputs)).toEqual([[3], [4], [5], [6]]);
    expect(app.works[0]!.estRunTimeS).toEqual([5, 7]);
    expect(x.tasks[3]!.argv).toEqual(['prog', 'shared.dat', 'b.in', 'res/b-2.txt']);
  });

  it('passes parameter values with shell syntax literally and keeps braces escapable', () => {
    const nasty = ["it's", '$(rm -rf /)', 'a b;c', '*', 'line\nbreak'];
    const sweep = { ...base, command: ['prog', '--v={v}', '{{literal}}'], parameters: { v: nasty } };
    const x = expandSweep(parseSweep(JSON.stringify(sweep), 's.json'), { originDir: dir });
    expect(x.tasks.map((t) => t.argv)).toEqual(nasty.map((v) => ['prog', `--v=${v}`, '{literal}']));
  });

  it('asks for one run-time estimate per architecture of the grid', () => {
    const text = JSON.stringify({ ...base, estimates: { runTimeS: [1, 2], outputSizeBytes: 0 } });
    expect(() => expandSweep(parseSweep(text, 's.json'), { originDir: dir, architectures: 3 })).toThrow(/3 architectures but runTimeS gives 2/);
  });
});

describe('gridsweep describe', () => {
  it('writes the example sweep as a WorkDescription the parser reads back', () => {
    const out = join(dir, 'example.wd');
    execFileSync(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src/cli/main.ts'), 'describe', join(EXAMPLE_DIR, 'sweep.json'), '-o', out], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
    const app = parseApplication(readFileSync(out, 'utf8'), out);
    expect(app.works).toHaveLength(20);
    expect(app.files).toHaveLength(3 + 20);
    expect(app.works.every((w) => w.inputs.includes(0))).toBe(true);
  });
});

describe('real grid files', () => {
  it('reads the example grid files', () => {
    for (const name of ['grid-local.json', 'grid-ssh.json']) {
      const path = join(EXAMPLE_DIR, name);
      const grid = parseRealGrid(readFileSync(path, 'utf8'), path);
      expect(grid.clusters.length).toBeGreaterThan(0);
    }
    const ssh = parseRealGrid(readFileSync(join(EXAMPLE_DIR, 'grid-ssh.json'), 'utf8'), 'grid-ssh.json');
    expect(ssh.clusters[0]!.endpoints.flatMap((e) => e.hostIds)).toEqual(['host1.1', 'host1.2.1', 'host1.2.2']);
  });

  it('reads deadlines, each defaulting on its own, and names a bad one with its place', () => {
    const grid = (deadlines: unknown) =>
      JSON.stringify({ realgrid: 1, deadlines, clusters: [{ name: 'c1', storage: '/s', hosts: [{ name: 'h', address: 'x', identityFile: 'k', arch: 0 }] }] }, null, 2);
    const parsed = parseRealGrid(grid({ probeS: 3 }), 'g.json');
    expect(parsed.deadlines).toEqual({ ...DEFAULT_DEADLINES, probeS: 3 });
    expect(parsed.clusters[0]!.endpoints[0]).toMatchObject({ deadlines: { ...DEFAULT_DEADLINES, probeS: 3 } });
    expect(() => parseRealGrid(grid({ loginS: 0 }), 'g.json')).toThrow(/g\.json:4:\d+: error: .*loginS/s);
    expect(() => parseRealGrid(grid({ probe: 3 }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*probe/s);
  });

  it('reads a jump host, its fields left out being the host\'s own but for the port', () => {
    // ssh's system-wide known_hosts files, which the user's environment names by default.
    const SYSTEM_KNOWN_HOSTS = { globalKnownHostsFiles: ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'] };
    const grid = (jump: object, host: object = {}) =>
      JSON.stringify({ realgrid: 1, knownHosts: '/kh', clusters: [{ name: 'c1', storage: '/s', hosts: [{ name: 'h', address: 'node', port: 2222, user: 'me', identityFile: '/k', arch: 0, ...host, jump }] }] }, null, 2);
    const jumpOf = (text: string) => (parseRealGrid(text, '/g/g.json').clusters[0]!.endpoints[0] as SshEndpointSpec).jump;
    expect(jumpOf(grid({ address: 'login' }))).toEqual({ address: 'login', port: 22, user: 'me', identityFile: '/k', agent: false, knownHostsFile: '/kh', ...SYSTEM_KNOWN_HOSTS });
    expect(jumpOf(grid({ address: 'login', port: 22022, user: 'other', identityFile: 'jk', knownHosts: 'jkh' }))).toEqual({ address: 'login', port: 22022, user: 'other', identityFile: '/g/jk', agent: false, knownHostsFile: '/g/jkh', ...SYSTEM_KNOWN_HOSTS });
    // Credentials go together: the jump host's agent replaces the host's key.
    expect(jumpOf(grid({ address: 'login', agent: true }))).toEqual({ address: 'login', port: 22, user: 'me', agent: true, knownHostsFile: '/kh', ...SYSTEM_KNOWN_HOSTS });
    expect(jumpOf(grid({ address: 'login' }, { identityFile: undefined, agent: true }))).toEqual({ address: 'login', port: 22, user: 'me', agent: true, knownHostsFile: '/kh', ...SYSTEM_KNOWN_HOSTS });
    const both = grid({ address: 'login', agent: true, identityFile: 'jk' });
    const line = both.split('\n').findIndex((l) => l.includes('"jump"')) + 1;
    expect(() => parseRealGrid(both, 'g.json')).toThrow(new RegExp(`g\\.json:${line}:\\d+: error: the jump host of "h" names both "identityFile" and "agent"`));
    expect(() => parseRealGrid(grid({ port: 22 }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*address/s);
    expect(() => parseRealGrid(grid({ address: 'login', jump: { address: 'x' } }), 'g.json')).toThrow(/g\.json:\d+:\d+: error: .*jump/s);
  });

  it('reports missing credentials, duplicate names and relative SSH storage with their place', () => {
    const text = JSON.stringify(
      {
        realgrid: 1,
        clusters: [
          { name: 'c1', storage: 'rel', hosts: [{ name: 'h', address: 'x', arch: 0 }] },
          { name: 'h', storage: '/s', hosts: { type: 'local', slots: 1 } },
        ],
      },
      null,
      2,
    );
    let msg = '';
    try {
      // No agent, no key in a home without ~/.ssh: no credentials to be found.
      parseRealGrid(text, 'g.json', { home: '/nonexistent-home', localUser: 'me', agentSocket: undefined, globalKnownHostsFiles: [], systemSshConfig: undefined });
    } catch (err) {
      msg = (err as Error).message;
    }
    expect(msg).toMatch(/g\.json:\d+:\d+: error: storage of an SSH cluster must be an absolute path/);
    expect(msg).toMatch(/host "h" names no credentials/);
    expect(msg).toMatch(/name "h" is used twice/);
  });
});
