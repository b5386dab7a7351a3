// `gridsweep dashboard RECORD...` as a user runs it: prints the URL, serves both runs, stops on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { TestClient } from './ws-client.js';

const records = join(PACKAGE_ROOT, 'test', 'fixtures', 'records');

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'dashboard', ...args], { cwd: PACKAGE_ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, out: () => stdout, err: () => stderr };
}

describe('gridsweep dashboard (CLI)', () => {
  it('replays two recorded runs side by side and stops cleanly on SIGTERM', async () => {
    const run = cli([join(records, 'sample-min-completion.jsonl'), join(records, 'sample-round-robin.jsonl'), '--speed', '500']);
    const deadline = Date.now() + 20_000;
    while (!/dashboard: (http\S+)/.test(run.out())) {
      if (Date.now() > deadline) throw new Error(`no URL printed; stderr: ${run.err()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /dashboard: (http\S+)/.exec(run.out())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const client = await TestClient.open(url);
    await client.until((ms) => ms.some((m) => m.type === 'hello'));
    const hello = client.messages.find((m) => m.type === 'hello')!;
    expect(hello.type === 'hello' && hello.sources.map((s) => s.name)).toEqual(['sample-min-completion', 'sample-round-robin']);
    expect(hello.type === 'hello' && hello.clock.speed).toBe(500);
    client.close();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('rejects a malformed record with file:line and exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gs-dash-cli-'));
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"header","t":0,"gridsweepVersion":"0.1.0","mode":"sim","heuristic":"h","seed":1,"inputs":{},"options":{},"taskCount":1}\n{"type":"start"}\n');
    const run = cli([bad]);
    expect(await run.exit).toBe(1);
    expect(run.err()).toContain(`${bad}:2:1: error: 'start' event without a valid time`);
  });
});
