// `gridsweep generate swf` and `gridsweep trace` as a user runs them: the report, --json, the schedule file,
// the checker, and errors that leave nothing half-written.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

describe('gridsweep trace', () => {
  const workload = join(dir, 'small.swf');

  it('generates the bundled small workload, deterministically', () => {
    const spec = join(PACKAGE_ROOT, 'griddescs/batch/small.json');
    const r = gridsweep('generate', 'swf', spec, '-o', workload, '--seed', '3');
    expect(r.stderr).toContain('wrote');
    expect(r.status).toBe(0);
    expect(gridsweep('generate', 'swf', spec, '-o', join(dir, 'again.swf'), '--seed', '3').status).toBe(0);
    expect(spawnSync('cmp', [workload, join(dir, 'again.swf')]).status).toBe(0);
  });

  it('--nodes alone changes how many nodes, not how many cores each has', () => {
    // small.swf's header: MaxNodes 16, MaxProcs 64, so 4 cores a node; 8 nodes keep 4 cores each.
    const r = gridsweep('trace', workload, '--nodes', '8', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ nodes: 8, coresPerNode: 4 });
    expect(JSON.parse(gridsweep('trace', workload, '--nodes', '8', '--cores-per-node', '2', '--json').stdout)).toMatchObject({ nodes: 8, coresPerNode: 2 });
  });

  it('prints the job metrics, and the same figures as JSON', () => {
    const text = gridsweep('trace', workload, '--policy', 'easy');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/16 nodes × 4 cores, policy easy, allocator first-fit/);
    const r = gridsweep('trace', workload, '--policy', 'easy', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { metrics: { jobs: number; waitS: { mean: number }; utilization: number } };
    expect(out.metrics.jobs).toBe(2000);
    expect(out.metrics.utilization).toBeGreaterThan(0.5);
    expect(out.metrics.utilization).toBeLessThanOrEqual(1);
    const mean = out.metrics.waitS.mean.toLocaleString('en-US', { maximumFractionDigits: 1 });
    expect(text.stdout).toContain(`wait               mean ${mean} s`);
  });

  it('writes the simulated schedule as SWF that reads back, with every job and its wait', () => {
    const schedule = join(dir, 'schedule.swf');
    const r = gridsweep('trace', workload, '--policy', 'conservative', '--allocator', 'best-fit', '--schedule', schedule, '--check');
    expect(r.stderr).toBe('checked 2,000 jobs: no violation (cores, order, reservations)\n');
    expect(r.status).toBe(0);
    // Completion order is not submit order, so the lines are read here rather than through the reader.
    const text = readFileSync(schedule, 'utf8');
    expect(text).toMatch(/^; MaxNodes: 16\n; MaxProcs: 64$/m);
    const jobs = text.split('\n').filter((l) => l !== '' && !l.startsWith(';')).map((l) => l.split(' ').map(Number));
    expect(jobs.map((f) => f[0]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    for (const f of jobs) {
      expect(f).toHaveLength(18);
      expect(f[2]).toBeGreaterThanOrEqual(0);
      expect(f[10]).toBe(1);
    }
  });

  it('refuses an unknown policy with exit 2 and the list', () => {
    const r = gridsweep('trace', workload, '--policy', 'fifo');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown --policy 'fifo'; expected one of fcfs, sjf, ljf, easy, conservative");
  });

  it('asks for the cluster size when the header does not give it', () => {
    const bare = join(dir, 'bare.swf');
    writeFileSync(bare, '1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n');
    const r = gridsweep('trace', bare);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('give --nodes and --cores-per-node');
    expect(gridsweep('trace', bare, '--nodes', '1', '--cores-per-node', '2').status).toBe(0);
  });

  it('a malformed workload: file:line:column, exit 1, no schedule file left behind', () => {
    const bad = join(dir, 'bad.swf');
    writeFileSync(bad, '; MaxNodes: 1\n; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n2 5 -1 x 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n');
    const out = join(dir, 'out', 'schedule.swf');
    mkdirSync(join(dir, 'out'));
    const r = gridsweep('trace', bad, '--schedule', out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bad.swf:4:8: error: field 4 (run time) is not a number');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
  });
});
