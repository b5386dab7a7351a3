// `gridsweep run` on hosts whose users' login shell is csh or tcsh (still the default on some clusters).
// sshd runs every command through that shell, and the commands were written for a POSIX shell: csh refuses
// a newline inside single quotes, expands `!` there, and has no `$(...)`. Before, with the exec transport
// every task failed ("code: Undefined variable.") and the hosts were set aside; with the agent, whose perl
// source spans lines, the hosts never came up. Now the first command asks for the login shell, and on a
// shell of another family the commands travel encoded (backends/ssh/login-shell.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { gridForBlock } from '../support/netns-block.js';
import { NASTY } from '../support/shell-words.js';

const SEEDS = 4;
const WELCOME = 'echo "Welcome to the cluster"\n';

describe.each([
  ['/usr/bin/tcsh', 'exec'],
  ['/usr/bin/tcsh', 'agent'],
  ['/usr/bin/bsd-csh', 'exec'],
  ['/usr/bin/bsd-csh', 'agent'],
] as const)('gridsweep run on hosts whose login shell is %s (transport %s)', (shell, transport) => {
  const block = gridForBlock(
    [
      { name: 'c0', hosts: ['a0'] },
      { name: 'c1', hosts: ['b0'] },
    ],
    { loginShell: shell },
  );

  it('runs every task there, none failed, with a start-up file that prints', async () => {
    writeFileSync(join(block.grid.host('b0').home, '.cshrc'), WELCOME);
    const { stdout, log } = await block.runSweep(SEEDS, { transport });
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
    expect(stdout, log).toMatch(/^done +task \d+ on a0 /m);
    expect(stdout, log).toMatch(/^done +task \d+ on b0 /m);
  }, 90_000);
});

describe('an SSH endpoint whose login shell is tcsh, as a Slurm login node is used', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['h0'] }], { loginShell: '/usr/bin/tcsh' });
  const originDir = mkdtempSync(join(tmpdir(), 'gridsweep-login-shells-'));
  afterAll(() => rmSync(originDir, { recursive: true, force: true }));

  // Shell syntax of every kind (`!` and newlines included), and a word longer than csh allows.
  const words = [...NASTY, 'history !! and !$', 'x'.repeat(5000)];

  it.each(['exec', 'agent'] as const)('runs argvs and opens channels with any bytes in their words (transport %s)', async (transport) => {
    const gridJson = block.grid.realGridJson(originDir, { transport });
    const spec = parseRealGrid(gridJson, 'grid.json').clusters[0]!.endpoints[0] as SshEndpointSpec;
    const endpoint = new SshEndpoint(spec, 'c0', block.grid.cluster('c0').storage, 'login-shells', { acceptNew: false });
    await endpoint.connect();
    try {
      const r = await endpoint.runArgv(['printf', '%s\\0', ...words]);
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\0').slice(0, -1)).toEqual(words);
      const channel = await endpoint.openChannel(['/bin/sh', '-c', 'read line\nprintf "%s:%s" "$line" "$1"', 'sh', words.at(-2)!]);
      const received: Buffer[] = [];
      channel.on('data', (d: Buffer) => received.push(d));
      const closed = new Promise<void>((resolve) => channel.on('close', () => resolve()));
      channel.write('hello\n');
      await closed;
      expect(Buffer.concat(received).toString()).toBe(`hello:${words.at(-2)}`);
    } finally {
      await endpoint.close();
    }
  }, 60_000);
});
