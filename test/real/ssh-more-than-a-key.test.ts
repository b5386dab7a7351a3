// A host whose sshd asks for more than a key (a password after the key, as sites with a one-time code ask
// for it after the key; or a password alone): gridsweep cannot give it, and sets the host aside saying so,
// whether the key comes from a file or from the SSH agent, rather than saying the key was refused.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { sweepOf } from './support/origin.js';
import { useSshdFarm } from './support/sshd-suite.js';
import { until } from './unit/support/grid-harness.js';

/** A sweep on the farm's host h1 with `agentSocket` as SSH_AUTH_SOCK: the farm's key file, or the agent alone. */
async function runOn(sshd: ReturnType<typeof useSshdFarm>, agentSocket: string | undefined) {
  const origin = sshd.makeOrigin(sweepOf(1, '0.1'));
  const grid = JSON.parse(sshd.farm.realGridJson(origin.dir)) as { clusters: { hosts: { identityFile?: string; agent?: true }[] }[] };
  if (agentSocket !== undefined) {
    for (const h of grid.clusters[0]!.hosts) {
      delete h.identityFile;
      h.agent = true;
    }
  }
  const gridPath = join(origin.dir, 'grid.json');
  writeFileSync(gridPath, JSON.stringify(grid));
  const { SSH_AUTH_SOCK: _ignored, ...env } = process.env;
  return runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--journal', join(origin.dir, 'journal.jsonl'), '--no-watch'], { ...env, ...(agentSocket !== undefined ? { SSH_AUTH_SOCK: agentSocket } : {}) });
}

describe('an SSH host that asks for a password after the key', () => {
  const sshd = useSshdFarm({ c1: ['h1'] }, { sshdLines: ['Match User root', '  PasswordAuthentication yes', '  AuthenticationMethods publickey,password'] });
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-more-than-a-key-'));
  const agentSocket = join(dir, 'agent.sock');
  let agent: ChildProcess | undefined;
  beforeAll(async () => {
    agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
    await until(() => existsSync(agentSocket), 'ssh-agent listening', 10_000);
    execFileSync('ssh-add', ['-q', sshd.farm.identityFile], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
  });
  afterAll(() => {
    agent?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a key file', false, ' \\(password\\)'],
    ['the agent', true, ''],
  ])('sets the host aside, saying it asks for more than a key (%s)', async (_label, withAgent, asked) => {
    const r = await runOn(sshd, withAgent ? agentSocket : undefined);
    expect(r.stdout).toMatch(new RegExp(`^UNUSABLE h1: h1 \\(root@\\[127\\.0\\.0\\.1\\]:\\d+\\): the login needs more than a key: it accepted the key, then asked for more${asked}; gridsweep logs in with keys alone`, 'm'));
    expect(r.stdout).not.toContain('check "user" and the key in authorized_keys');
    expect(r.code).not.toBe(0);
  }, 60_000);
});

describe('an SSH host that takes no key', () => {
  const sshd = useSshdFarm({ c1: ['h1'] }, { sshdLines: ['Match User root', '  PasswordAuthentication yes', '  AuthenticationMethods password'] });

  it('sets the host aside, saying it takes no key', async () => {
    const r = await runOn(sshd, undefined);
    expect(r.stdout).toMatch(/^UNUSABLE h1: h1 \(root@\[127\.0\.0\.1\]:\d+\): the login needs more than a key: it takes no SSH key, only password; gridsweep logs in with keys alone/m);
    expect(r.code).not.toBe(0);
  }, 60_000);
});
