// Heuristic plug-ins from the user's own files: loaded, run exactly as built-in heuristics are, checked by
// `gridsweep check-heuristic`, and every mistake an error naming the plug-in (exit 1, nothing written).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: PACKAGE_ROOT, timeout: 60_000 });
const PLUGINS = 'test/fixtures/plugins';
const EXAMPLE = './docs/examples/earliest-completion.mjs';
const SIM = ['simulate', '--app', 'apps/appendix-b.app', '--grid', 'griddescs/appendix-a/appendix-a.grid'];
const dir = mkdtempSync(join(tmpdir(), 'gs-plugins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('heuristic plug-ins', () => {
  it('the documented example passes check-heuristic', () => {
    const r = gridsweep('check-heuristic', EXAMPLE, '--instances', '8');
    expect(r.stdout).toContain('no violation on 8 instance(s)');
    expect(r.status).toBe(0);
  });

  it('a plug-in that is the built-in XSufferage gives the same run record, event for event', () => {
    const builtIn = join(dir, 'builtin.jsonl');
    const plugin = join(dir, 'plugin.jsonl');
    expect(gridsweep(...SIM, '--heuristic', 'xsufferage', '--record', builtIn).status).toBe(0);
    expect(gridsweep(...SIM, '--heuristic', `./${PLUGINS}/reexport-xsufferage.mjs`, '--record', plugin).status).toBe(0);
    const body = (p: string) => readFileSync(p, 'utf8').split('\n').slice(1).join('\n');
    expect(body(plugin)).toBe(body(builtIn));
    expect(readFileSync(plugin, 'utf8').split('\n')[0]).toContain(`"heuristic":"${join(PACKAGE_ROOT, PLUGINS, 'reexport-xsufferage.mjs')}"`);
  });

  it('a plug-in that throws: an error naming it, exit 1, no record left', () => {
    const record = join(dir, 'never.jsonl');
    const r = gridsweep(...SIM, '--heuristic', `./${PLUGINS}/throws.mjs`, '--record', record);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`heuristic plug-in ${join(PACKAGE_ROOT, PLUGINS, 'throws.mjs')} ("throws") threw in plan(): boom`);
    expect(existsSync(record)).toBe(false);
  });

  it('placing on a host that does not exist, or a Work twice, is refused', () => {
    expect(gridsweep(...SIM, '--heuristic', `./${PLUGINS}/bad-host.mjs`).stderr).toMatch(/\("bad-host"\) placed Work \d+ on host index \d+, which does not exist/);
    expect(gridsweep(...SIM, '--heuristic', `./${PLUGINS}/twice.mjs`).stderr).toMatch(/\("twice"\) placed Work \d+ twice in one plan/);
  });

  it('a module that is not a heuristic says what it lacks', () => {
    const r = gridsweep(...SIM, '--heuristic', `./${PLUGINS}/no-plan.mjs`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('lacks a "plan(ctx)" function (see docs/plugins.md)');
  });

  it('check-heuristic reports what a plug-in breaks: an exception, a sweep it never finishes, an endless loop', () => {
    const throws = gridsweep('check-heuristic', `${PLUGINS}/throws.mjs`, '--instances', '2');
    expect(throws.status).toBe(1);
    expect(throws.stdout).toContain('threw in plan(): boom');
    const idle = gridsweep('check-heuristic', `${PLUGINS}/idle.mjs`, '--instances', '2');
    expect(idle.status).toBe(1);
    expect(idle.stdout).toMatch(/the sweep did not finish: 0 of \d+ Works done/);
    expect(idle.stdout).toContain('2 of 2 checked instance(s) violate the rules');
    const loops = gridsweep('check-heuristic', `${PLUGINS}/loops.mjs`, '--instances', '3', '--time-limit', '1');
    expect(loops.status).toBe(1);
    expect(loops.stdout).toContain('instance 1 did not end within 1 s: stopped (an endless loop in plan()?)');
  });

  it('an experiment runs a plug-in in its worker threads, beside a built-in', () => {
    const spec = {
      name: 'plugin',
      // A plug-in's path in a specification counts from the specification's folder.
      heuristics: ['minmin', relative(dir, join(PACKAGE_ROOT, EXAMPLE))],
      grids: { a: { file: join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid') } },
      applications: { b: { file: join(PACKAGE_ROOT, 'apps/appendix-b.app') } },
      seeds: [1, 2],
    };
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec));
    const r = gridsweep('experiment', join(dir, 'spec.json'), '--out', join(dir, 'out'), '--jobs', '2');
    expect(r.stderr).not.toContain('failed:');
    expect(r.status).toBe(0);
    const rows = (JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as { rows: Array<{ heuristic: string; makespanS: number; finished: boolean }> }).rows;
    const plugin = rows.filter((row) => row.heuristic === join(PACKAGE_ROOT, EXAMPLE));
    expect(plugin).toHaveLength(2);
    const simulated = gridsweep(...SIM, '--heuristic', EXAMPLE, '--json');
    expect(plugin[0]!.makespanS).toBe((JSON.parse(simulated.stdout) as { makespanS: number }).makespanS);
  });

  it('a real run (local processes) schedules with a plug-in', () => {
    const origin = join(dir, 'sweep');
    cpSync(join(PACKAGE_ROOT, 'apps/examples/sweep-sim'), origin, { recursive: true });
    const r = spawnSync(process.execPath, [cli, 'run', 'sweep.json', '--grid', 'grid-local.json', '--heuristic', join(PACKAGE_ROOT, EXAMPLE), '--no-watch'], { encoding: 'utf8', cwd: origin, timeout: 60_000 });
    expect(r.stderr).not.toContain('error');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('tasks: 20 done and verified');
    expect(readFileSync(join(origin, 'results', 'large-10.txt'), 'utf8').length).toBeGreaterThan(0);
  });
});
