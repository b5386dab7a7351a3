// Ctrl-C during `gridsweep simulate`, through the real CLI: exit 130, no temporary record file left, no
// record written, and a line saying how far the simulation got. With pipes (no terminal) no progress line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-sigint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('simulate interrupted', () => {
  it('SIGINT: exit 130, no *.tmp, no record, what was done on stderr', async () => {
    // 20,000 independent tasks of 50-150 s on the Figure 11 grid under workqueue: a few seconds of
    // simulation (60,000 events), long enough to be interrupted once its record file is open.
    const spec = join(dir, 'ins2d.json');
    writeFileSync(spec, JSON.stringify({ tasks: 20_000, unsharedInputsPerTask: 1, unsharedInputSizeBytes: { kind: 'constant', value: 1000 }, outputSizeBytes: { kind: 'constant', value: 1000 }, runTimeS: { kind: 'uniform', min: 50, max: 150 } }));
    const app = join(dir, 'big.app');
    expect(spawnSync(process.execPath, [cli, 'generate', 'ins2d', spec, '-o', app], { encoding: 'utf8' }).status).toBe(0);
    const record = join(dir, 'run.jsonl');
    const child = spawn(process.execPath, [cli, 'simulate', '--app', app, '--grid', join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid'), '--heuristic', 'workqueue', '--record', record], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // The temporary record appears once the inputs are parsed, just before the simulation starts.
    const tmpFiles = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));
    const deadline = Date.now() + 60_000;
    while (tmpFiles().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(tmpFiles()).toEqual([`run.jsonl.${child.pid}.tmp`]);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(tmpFiles()).toEqual([]);
    expect(existsSync(record)).toBe(false);
    expect(stderr).toMatch(/^gridsweep simulate: interrupted after [\d.]+ s, at simulated time [\d,]+ s: [\d,]+ of 20,000 Works done, [\d,]+ events; no run record written\n$/);
    // no report, and no progress line on a pipe
    expect(stdout).toBe('');
    expect(stderr).not.toContain('\r');
  }, 120_000);
});
