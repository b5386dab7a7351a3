// The largest cluster sizes (src/batch/cluster-limits.ts), from every place a size comes from: each is
// refused in one message naming the bound, with the usage (exit 2) or input (exit 1) status, before any
// work. Beyond them the simulators ran out of memory or stopped with an internal error, and a node of 2^32 + 1
// cores was silently a node of 1 (its free cores are 32-bit counts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CORES_PER_NODE, MAX_MPL, MAX_NODES, MAX_TIMESHARED_CPUS } from '../../src/batch/cluster-limits.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
const swf = join(PACKAGE_ROOT, 'test/fixtures/swf/hand.swf');

/** The first line of standard error. */
const firstLine = (r: { stderr: string }): string => r.stderr.split('\n').find((l) => !l.startsWith('note:')) ?? '';

describe('cluster sizes beyond what gridsweep simulates', () => {
  it('trace: --nodes and --cores-per-node above the bounds, space-shared and time-shared', () => {
    const cases: [string[], string][] = [
      [['--nodes', String(MAX_NODES + 1)], `a cluster of ${MAX_NODES + 1} nodes: at most ${MAX_NODES} are supported`],
      [['--cores-per-node', String(2 ** 32 + 1)], `nodes of ${2 ** 32 + 1} cores: at most ${MAX_CORES_PER_NODE} cores per node are supported`],
      [['--timeshare', 'gang', '--slice', '60', '--nodes', String(MAX_TIMESHARED_CPUS + 1), '--cores-per-node', '1'], `a time-shared cluster of ${MAX_TIMESHARED_CPUS + 1} × 1 CPUs: at most ${MAX_TIMESHARED_CPUS} CPUs are supported; give --nodes and --cores-per-node within it`],
      [['--timeshare', 'gang', '--slice', '60', '--mpl', String(MAX_MPL + 1)], `--timeshare gang: mpl must be a whole number from 1 to ${MAX_MPL}, got ${MAX_MPL + 1}`],
    ];
    for (const [options, message] of cases) {
      const r = gridsweep('trace', swf, ...options);
      expect(r.status, options.join(' ')).toBe(2);
      expect(firstLine(r), options.join(' ')).toBe(`gridsweep trace: ${message}`);
    }
    // At the bounds, the same workload runs.
    expect(gridsweep('trace', swf, '--nodes', '64', '--cores-per-node', String(MAX_CORES_PER_NODE)).status).toBe(0);
  });

  it("trace: an SWF header's MaxNodes above the bound", () => {
    const text = readFileSync(swf, 'utf8').replace(/^; MaxNodes:.*$/m, `; MaxNodes: ${MAX_NODES * 4}`).replace(/^; MaxProcs:.*$/m, `; MaxProcs: ${MAX_NODES * 4}`);
    expect(text).toContain(`; MaxNodes: ${MAX_NODES * 4}`);
    writeFileSync(join(dir, 'huge.swf'), text);
    const r = gridsweep('trace', 'huge.swf');
    expect(r.status).toBe(2);
    expect(firstLine(r)).toBe(`gridsweep trace: a cluster of ${MAX_NODES * 4} nodes: at most ${MAX_NODES} are supported`);
  });

  it('grid files: a batch cluster of too many nodes, too many cores a node, a gang cluster of too many CPUs or rows', () => {
    const grid = readFileSync(join(PACKAGE_ROOT, 'griddescs/batch/mixed.grid'), 'utf8');
    const line = grid.split('\n').find((l) => l.includes('ADD_BATCH_CLUSTER'))!;
    expect(line).toContain('<0> <16> <4> <easy> <first-fit>');
    const cases: [string, string][] = [
      [line.replace('<16> <4>', `<${MAX_NODES + 1}> <4>`), `node count is above ${MAX_NODES}`],
      [line.replace('<16> <4>', `<16> <${MAX_CORES_PER_NODE + 1}>`), `cores per node is above ${MAX_CORES_PER_NODE}`],
      [line.replace('<16> <4> <easy>', '<2048> <1024> <fcfs>').replace(/<0>\s*$/, '<0> gang:<4>'), `a time-shared cluster of 2048 × 1024 CPUs: at most ${MAX_TIMESHARED_CPUS} CPUs are supported`],
      [line.replace('<easy>', '<fcfs>').replace(/<0>\s*$/, `<0> gang:<${MAX_MPL + 1}>`), `gang MPL is above ${MAX_MPL}`],
    ];
    for (const [changed, message] of cases) {
      expect(changed, message).not.toBe(line);
      const path = join(dir, 'mixed.grid');
      writeFileSync(path, grid.replace(line, changed));
      for (const name of ['avail_100', 'link_1MBps_5ms', 'background.swf']) writeFileSync(join(dir, name), readFileSync(join(PACKAGE_ROOT, 'griddescs/batch', name)));
      const r = gridsweep('validate', path);
      expect(r.status, message).toBe(1);
      expect(r.stderr, message).toContain(`error: ${message}`);
    }
  });

  it('generator specifications: a workload for too many nodes', () => {
    writeFileSync(join(dir, 'w.json'), JSON.stringify({ jobs: 10, nodes: MAX_NODES + 1, coresPerNode: 1 }));
    const r = gridsweep('generate', 'swf', 'w.json', '-o', 'w.swf');
    expect(r.status).toBe(1);
    expect(firstLine(r)).toBe(`w.json:1:20: error: /nodes: must be <= ${MAX_NODES}`);
  });
});
