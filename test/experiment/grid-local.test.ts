// `gridsweep experiment SPEC --grid` on local slots: the cells run as tasks of a real sweep (the bundled
// cell program, the cell table and the input files shipped once to the cluster's storage, each result
// fetched back verified) and the experiment's files are those of the worker-thread run of the same spec;
// the cache is used both ways: cells already cached are not sent, cells computed on the grid fill it. A
// heuristic plug-in travels with the cells and gives the results of a run at the origin.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { RESULTS_FOLDER_LOCK } from '../../backends/real/journal-lock.js';
import { until } from '../real/unit/support/grid-harness.js';
import { cachedKeys, expectSameResults, gridsweep, localGridFile, makeScratch, startGridsweep } from './support/grid-experiment.js';

describe('experiment --grid on local slots', () => {
  // 3 heuristics × 2 applications × 4 seeds = 24 cells.
  const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 4);
  const grid = localGridFile(scratch, 2);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));
  const local = join(scratch.dir, 'local');
  const remote = join(scratch.dir, 'remote');

  it('gives the worker-thread results, and fills and respects the cache', async () => {
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);
    const all = cachedKeys(local);
    expect(all).toHaveLength(24);

    // Half the cells already in the cache (computed locally): only the other half goes to the grid.
    const seeded = all.filter((_, i) => i % 2 === 0);
    for (const k of seeded) cpSync(join(local, 'runs', k.slice(0, 2), `${k}.json`), join(remote, 'runs', k.slice(0, 2), `${k}.json`), { recursive: true });
    const g = await gridsweep(['experiment', scratch.specPath, '--out', remote, '--grid', grid]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('12 run(s) to compute on the real grid (12 from the cache)');
    expect(g.stderr).toContain('real grid: 12 run(s) computed in 4 task(s), 0 failed');
    // The bundle, the cell table, the grid file with its 4 behaviour files and the application file: each
    // sent once to the one cluster (8 inputs, 8 transfers), however many cells read it.
    expect(g.stderr).toMatch(/in [\d.]+ s; 8 input transfer\(s\)/);
    expect(g.stdout).toContain('24 runs: 12 simulated, 12 from the cache, 0 failed');
    expect(cachedKeys(remote)).toEqual(all);
    // Everything came back into the cache: what was staged is gone, the journal renamed aside.
    expect(readdirSync(join(remote, 'grid-run'))).toEqual(['.gridsweep']);
    expect(readdirSync(join(remote, 'grid-run', '.gridsweep', 'cells')).filter((f) => /^journal\..*\.jsonl$/.test(f))).toHaveLength(1);
    expectSameResults(local, remote);

    // The cells computed on the grid serve a local run of the same folder: nothing is simulated.
    const again = await gridsweep(['experiment', scratch.specPath, '--out', remote]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('24 runs: 0 simulated, 24 from the cache, 0 failed');
    expectSameResults(local, remote);
  }, 300_000);
});

describe('experiment --grid with a grid file a host cannot read', () => {
  const scratch = makeScratch(['H0'], 1);
  const grid = localGridFile(scratch, 1);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

  it('reports a behaviour file named by an absolute path where it is named, and sends nothing', async () => {
    const gridFile = join(scratch.dir, 'inputs', 'griddescs', 'fig11', 'fig11.grid');
    const lines = readFileSync(gridFile, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('<avail_100>'));
    const absolute = join(dirname(gridFile), 'avail_100');
    lines[at] = lines[at]!.replace('<avail_100>', `<${absolute}>`);
    writeFileSync(gridFile, lines.join('\n'));
    const g = await gridsweep(['experiment', scratch.specPath, '--out', join(scratch.dir, 'out'), '--grid', grid]);
    expect(g.code, g.stderr).toBe(1);
    const column = lines[at]!.indexOf(absolute) + 1;
    expect(g.stderr).toContain(`${gridFile}:${at + 1}:${column}: error: a behaviour file named by an absolute path, which a host of the real grid cannot read\n  found: ${absolute}\n  fix: name it relative to the grid file`);
    expect(g.stderr).not.toContain('internal error');
    expect(existsSync(join(scratch.dir, 'storage'))).toBe(false);
  }, 300_000);
});

describe('experiment --grid with a heuristic plug-in', () => {
  // The plug-in beside a built-in heuristic: 2 heuristics × 2 applications × 1 seed = 4 cells.
  const scratch = makeScratch(['H0', './plugins/earliest-completion.mjs'], 1);
  mkdirSync(join(scratch.dir, 'plugins'));
  cpSync(join(PACKAGE_ROOT, 'docs', 'examples', 'earliest-completion.mjs'), join(scratch.dir, 'plugins', 'earliest-completion.mjs'));
  // What the plug-ins below import: a helper file beside them, and a package installed beside them.
  writeFileSync(join(scratch.dir, 'plugins', 'helper.mjs'), 'export const label = "split";\n');
  const pkg = join(scratch.dir, 'plugins', 'node_modules', 'gridsweep-test-label');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'gridsweep-test-label', type: 'module', exports: './index.js' }));
  writeFileSync(join(pkg, 'index.js'), 'export const label = "split";\n');
  const grid = localGridFile(scratch, 2);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

  it('ships the module with the cells and gives the worker-thread results', async () => {
    const local = join(scratch.dir, 'local');
    const remote = join(scratch.dir, 'remote');
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);
    const g = await gridsweep(['experiment', scratch.specPath, '--out', remote, '--grid', grid]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('real grid: 4 run(s) computed in');
    expect(g.stdout).toContain('4 runs: 4 simulated, 0 from the cache, 0 failed');
    // The bundle, the cell table, the grid file with its 4 behaviour files, the application file and the plug-in.
    expect(g.stderr).toMatch(/in [\d.]+ s; 9 input transfer\(s\)/);
    expect(cachedKeys(remote)).toEqual(cachedKeys(local));
    expectSameResults(local, remote);
  }, 300_000);

  // A plug-in that loads at home only with a file beside it, or with a package installed beside it.
  it.each([
    ['a file beside it', 'needs-file', "import { label } from './helper.mjs';"],
    ['a package', 'needs-package', "import { label } from 'gridsweep-test-label';"],
  ])('stops before staging or sending anything when the plug-in needs %s', async (_, name, importLine) => {
    const plugins = join(scratch.dir, 'plugins');
    const text = readFileSync(join(plugins, 'earliest-completion.mjs'), 'utf8');
    const plugin = join(plugins, `${name}.mjs`);
    writeFileSync(plugin, `${importLine}\n${text.replace(/name: '[^']*'/, 'name: label')}`);
    const spec = JSON.parse(readFileSync(scratch.specPath, 'utf8')) as { heuristics: string[] };
    const splitSpec = join(scratch.dir, `${name}.json`);
    writeFileSync(splitSpec, JSON.stringify({ ...spec, name, heuristics: [`./plugins/${name}.mjs`] }));
    const out = join(scratch.dir, `${name}-remote`);
    const runsOnStorage = (): string[] => (existsSync(join(scratch.dir, 'storage', 'gridsweep')) ? readdirSync(join(scratch.dir, 'storage', 'gridsweep')) : []);
    const before = runsOnStorage();
    // At home it loads, so a run without --grid works ...
    const home = await gridsweep(['experiment', splitSpec, '--out', join(scratch.dir, `${name}-home`)]);
    expect(home.code, home.stderr).toBe(0);
    // ... but alone on a host it would not: one error naming it and what to do, nothing staged or sent.
    const g = await gridsweep(['experiment', splitSpec, '--out', out, '--grid', grid]);
    expect(g.code).toBe(1);
    expect(g.stderr).toContain(`heuristic plug-in ${plugin}: with --grid it travels to the hosts as its one file, and that file alone does not load`);
    expect(g.stderr).toContain("make it one file that imports only Node's built-in modules");
    expect(g.stderr).not.toContain('real grid:');
    expect(existsSync(join(out, 'grid-run', 'files'))).toBe(false);
    expect(runsOnStorage()).toEqual(before);
  }, 300_000);
});

describe('experiment --grid started twice on one results folder', () => {
  // 2 heuristics × 2 applications × 2 seeds = 8 cells.
  const scratch = makeScratch(['H0', 'xsufferage'], 2);
  const grid = localGridFile(scratch, 2);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

  // Before, the second staged the cells again into the first's origin and ran every task beside it, both
  // writing one journal.
  it('refuses the second while the first runs, saying which run holds the folder; the first ends as if alone', async () => {
    const out = join(scratch.dir, 'out');
    const journal = join(out, 'grid-run', '.gridsweep', 'cells', 'journal.jsonl');
    const first = startGridsweep(['experiment', scratch.specPath, '--out', out, '--grid', grid]);
    await until(() => existsSync(journal), "the grid run's journal", 60_000);
    // Held still, so that it cannot end before the second starts.
    first.kill('SIGSTOP');
    const second = await gridsweep(['experiment', scratch.specPath, '--out', out, '--grid', grid]);
    first.kill('SIGCONT');
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/^gridsweep experiment: the results folder \S+out is in use by another gridsweep experiment \(pid \d+, since \S+\); wait for it to end, or give this experiment another --out\n$/);
    const done = await first.result;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('real grid: 8 run(s) computed in');
    expect(done.stdout).toContain('8 runs: 8 simulated, 0 from the cache, 0 failed');
    expect(cachedKeys(out)).toHaveLength(8);
    expect(existsSync(join(out, RESULTS_FOLDER_LOCK))).toBe(false);
  }, 300_000);
});
