// `gridsweep run --dashboard`: the live dashboard of a real run (loopback sshd hosts) is served while the
// run goes on; the page answers over HTTP with the printed token and refuses requests without it.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecordEvent } from '../../src/record/events.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';
import { makeOrigin, sweepOf, type Origin } from './support/origin.js';

describe('gridsweep run --dashboard', () => {
  let farm: SshdFarm;
  let origin: Origin;

  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h11', 'h12'] });
    origin = makeOrigin(sweepOf(4, '0.5'));
  });
  afterAll(async () => {
    await farm?.stop();
    origin?.remove();
  });

  it('serves the live page with the token while the run goes on', async () => {
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, farm.realGridJson(origin.dir));
    const recordPath = join(origin.dir, 'run.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'), 'run', origin.sweepPath, '--grid', gridPath, '--record', recordPath, '--dashboard'], {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`run ended without printing the dashboard URL: ${stdout}${stderr}`)));
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<html/i);
    const refused = await fetch(url.replace(/token=[^&]+/, 'token=wrong'));
    expect(refused.status).toBe(403);
    // the run was still going on while the page was served
    expect(stdout).not.toMatch(/^makespan:/m);
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/tasks: 8 done and verified/);
    const record = readFileSync(recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
    expect(record.at(-1)).toMatchObject({ type: 'run-end', worksDone: 8 });
  });
});
