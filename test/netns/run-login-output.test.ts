// `gridsweep run` on a host whose login shell prints on standard output (a ~/.bashrc that echoes a welcome,
// or a module system's notice without a newline), with either transport. What it prints comes before every
// command's own output: the exec transport used to read it as the output's sizes and hashes (every task on
// that host failed, and the host was set aside); the agent's first line was not JSON, so the host never came
// up. Now both skip it: the host runs its share of the tasks, none counted failed. SFTP cannot skip it when
// sshd starts its server through that shell: then the exec transport's failure says what the shell
// printed, and the agent carries files of any size itself, a part at a time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { runCli } from '../support/run-support.js';

const SEEDS = 4;

describe.each(['exec', 'agent'] as const)('gridsweep run (transport %s) on a host whose login shell prints', (transport) => {
  const block = gridForBlock([
    { name: 'c0', hosts: ['a0'] },
    { name: 'c1', hosts: ['b0'] },
  ]);
  beforeAll(() => writeFileSync(join(block.grid.host('b0').home, '.bashrc'), `echo "Welcome to the cluster"\nprintf 'module notice: '\n`));

  it('uses the host as any other: its tasks done and verified, none failed', async () => {
    const { stdout, log } = await block.runSweep(SEEDS, { transport });
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
    expect(stdout, log).toMatch(/^done +task \d+ on b0 /m);
  }, 90_000);
});

describe('gridsweep run (transport exec) on a host whose login shell prints, with SFTP started through that shell', () => {
  const block = gridForBlock(
    [
      { name: 'c0', hosts: ['a0'] },
      { name: 'c1', hosts: ['b0'] },
    ],
    { sftpThroughShell: true },
  );
  beforeAll(() => writeFileSync(join(block.grid.host('b0').home, '.bashrc'), 'echo "Welcome to the cluster"\n'));

  it("says that the shell's output breaks SFTP, and the other cluster does the tasks", async () => {
    const { stdout, log } = await block.runSweep(SEEDS, { transport: 'exec' });
    expect(stdout, log).toMatch(/^down +c1: input \d+ could not be stored: .*\(its login shell prints "Welcome to the cluster" on standard output, which breaks SFTP: make its start-up files print only in interactive shells\)$/m);
  }, 90_000);
});

describe('gridsweep run (transport agent) on a host whose login shell prints, with SFTP started through that shell', () => {
  const block = gridForBlock([{ name: 'c1', hosts: ['b0'] }], { sftpThroughShell: true });
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-login-output-'));
  beforeAll(() => writeFileSync(join(block.grid.host('b0').home, '.bashrc'), 'echo "Welcome to the cluster"\n'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('carries inputs and outputs larger than the inline budget through the agent in parts', async () => {
    // 3 MiB and a bit, incompressible; each task's output is two copies of it.
    const input = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 123 }, (_, i) => (i * 2654435761) >>> 24));
    writeFileSync(join(dir, 'big.bin'), input);
    const sweepPath = join(dir, 'sweep.json');
    writeFileSync(
      sweepPath,
      JSON.stringify({
        sweep: 1,
        command: ['sh', '-c', 'cat "$1" "$1" > "$2"', 'task', '{big}', '{out}'],
        parameters: { i: { from: 1, to: 2 } },
        inputs: { big: 'big.bin' },
        outputs: { out: 'results/{i}.bin' },
        estimates: { runTimeS: 1, outputSizeBytes: 2 * input.length },
      }),
    );
    const gridPath = join(dir, 'grid.json');
    writeFileSync(gridPath, block.grid.realGridJson(dir, { transport: 'agent' }));
    const r = await runCli(['run', sweepPath, '--grid', gridPath, '--journal', join(dir, 'journal.jsonl'), '--heuristic', 'workqueue'], () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).toMatch(/^stored +input 0 in c1 \(3145851 bytes/m);
    expect(r.stdout, log).toMatch(/^tasks: 2 done and verified, 0 skipped \(verified before\), 0 failed, of 2$/m);
    for (const i of [1, 2]) expect(readFileSync(join(dir, 'results', `${i}.bin`)).equals(Buffer.concat([input, input]))).toBe(true);
  }, 90_000);
});
