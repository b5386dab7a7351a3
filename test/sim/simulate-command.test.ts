// `gridsweep simulate` run in-process on the paper's files: the report, --json, the record file, bad input.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import command from '../../src/cli/commands/simulate.js';
import { UsageError } from '../../src/cli/command.js';
import { loadApplication } from '../../src/formats/index.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { checkRunRecord } from '../support/invariants.js';

const appPath = join(PACKAGE_ROOT, 'apps/appendix-b.app');
const gridPath = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function simulateCli(values: Record<string, string | boolean>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const code = await command.run({ values, positionals: [] });
  vi.restoreAllMocks();
  return { code, out: out.join('\n') };
}

describe('gridsweep simulate', () => {
  it('prints makespan, per-host and per-link use, file sends, failures and do_plan() figures', async () => {
    const { code, out } = await simulateCli({ app: appPath, grid: gridPath, heuristic: 'H4' });
    expect(code).toBe(0);
    expect(out).toContain('heuristic: extended-sufferage');
    expect(out).toMatch(/^makespan: \d+\.\d{3} s$/m);
    expect(out).toMatch(/^ {2}host3\.1 \(cluster3\) +busy +\d+\.\d{3} s +utilization +\d+\.\d %$/m);
    expect(out).toMatch(/^ {2}cluster6 +busy .* in \d+ B {2}out \d+ B {2}transfers \d+$/m);
    expect(out).toMatch(/^input files sent: 10 files, at most \d+ time\(s\) each, \d+ sent more than once$/m);
    expect(out).toMatch(/^failures: \d+ {2}re-executions: \d+$/m);
    expect(out).toMatch(/^do_plan\(\): \d+ call\(s\), \d+\.\d ms CPU$/m);
  });

  it('--json prints one object: the result plus parse, simulate and plan wall times', async () => {
    const { out } = await simulateCli({ app: appPath, grid: gridPath, json: true, seed: '3', 'plan-interval': '100' });
    const r = JSON.parse(out) as Record<string, unknown> & { wallMs: Record<string, number>; hosts: unknown[]; worksDone: number };
    expect(r.finished).toBe(true);
    expect(r.worksDone).toBe(12);
    expect(r.hosts).toHaveLength(12);
    expect(Object.keys(r.wallMs).sort()).toEqual(['parse', 'plan', 'simulate']);
  });

  it('--record writes a complete JSON Lines record and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sim-'));
    dirs.push(dir);
    const path = join(dir, 'run.jsonl');
    await simulateCli({ app: appPath, grid: gridPath, record: path, heuristic: 'workqueue', 'work-stealing': true });
    const events = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
    expect(events[0]).toMatchObject({ type: 'header', mode: 'sim', heuristic: 'workqueue', seed: 1, taskCount: 12 });
    const header = events[0] as Extract<RunRecordEvent, { type: 'header' }>;
    expect(header.options).toMatchObject({ workStealing: true, samplePeriodS: 5 });
    expect(Object.keys(header.inputs)).toEqual(expect.arrayContaining(['application', 'grid', 'behavior:stable_100Kb', 'behavior:loaded_2']));
    expect(events.at(-1)!.type).toBe('run-end');
    expect(checkRunRecord(events, loadApplication(appPath))).toEqual([]);
    expect(readdirSync(dir)).toEqual(['run.jsonl']);
  });

  it('refuses bad options as usage errors and bad files as input errors, writing nothing', async () => {
    await expect(simulateCli({ app: appPath, grid: gridPath, heuristic: 'nope' })).rejects.toThrow(UsageError);
    await expect(simulateCli({ app: appPath, grid: gridPath, 'link-order': 'random' })).rejects.toThrow(/--link-order takes one of greedy, keep/);
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sim-'));
    dirs.push(dir);
    const bad = join(dir, 'bad.app');
    writeFileSync(bad, 'WorkDescription 1 1 1\nFile: <0> <f> <oops> <1>\n');
    const record = join(dir, 'run.jsonl');
    await expect(simulateCli({ app: bad, grid: gridPath, record })).rejects.toThrow(InputError);
    expect(existsSync(record)).toBe(false);
    expect(readdirSync(dir)).toEqual(['bad.app']);
  });
});
