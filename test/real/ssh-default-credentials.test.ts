// A grid file whose SSH host names no credentials logs in as ssh would: with the SSH agent's keys and the
// first default key of ~/.ssh. A default key protected by a passphrase is left to the agent (gridsweep
// cannot ask for it), and without an agent it is refused with that reason. Real ssh-agent, real sshd; the
// run's HOME is a directory of the test's.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { sweepOf } from './support/origin.js';
import { useSshdFarm } from './support/sshd-suite.js';
import { until } from './unit/support/grid-harness.js';

describe('an SSH host that names no credentials', () => {
  const sshd = useSshdFarm({ c1: ['h1'] });
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-credentials-'));
  const agentSocket = join(dir, 'agent.sock');
  let agent: ChildProcess | undefined;

  /** A home whose ~/.ssh/id_ed25519 is the farm's key, encrypted with a passphrase or not. */
  function home(name: string, encrypted: boolean): string {
    const h = join(dir, name);
    mkdirSync(join(h, '.ssh'), { recursive: true });
    const key = join(h, '.ssh', 'id_ed25519');
    copyFileSync(sshd.farm.identityFile, key);
    if (encrypted) execFileSync('ssh-keygen', ['-q', '-p', '-P', '', '-N', 'secret', '-f', key]);
    return h;
  }

  beforeAll(async () => {
    agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
    await until(() => existsSync(agentSocket), 'ssh-agent listening', 10_000);
    execFileSync('ssh-add', ['-q', sshd.farm.identityFile], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
  });
  afterAll(() => {
    agent?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(env: { HOME: string; SSH_AUTH_SOCK?: string }) {
    const origin = sshd.makeOrigin(sweepOf(2, '0.1'));
    const grid = JSON.parse(sshd.farm.realGridJson(origin.dir)) as { clusters: { hosts: { identityFile?: string }[] }[] };
    for (const h of grid.clusters[0]!.hosts) delete h.identityFile;
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, JSON.stringify(grid));
    const { SSH_AUTH_SOCK: _ignored, ...rest } = process.env;
    return runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--journal', join(origin.dir, 'journal.jsonl'), '--no-watch'], { ...rest, ...env });
  }

  it('logs in with the agent, leaving it the default key that has a passphrase', async () => {
    const r = await run({ HOME: home('locked-with-agent', true), SSH_AUTH_SOCK: agentSocket });
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^done +task \d on h1 \(4\/4\)$/m);
  }, 60_000);

  it('logs in with the default key when there is no agent', async () => {
    const r = await run({ HOME: home('open', false) });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 60_000);

  it('without an agent, says the default key with a passphrase cannot be used', async () => {
    const h = home('locked', true);
    const r = await run({ HOME: h });
    expect(r.stdout).toContain('UNUSABLE h1: h1 (root@[127.0.0.1]:');
    expect(r.stdout).toContain(`cannot use the identity file ${join(h, '.ssh', 'id_ed25519')}`);
    expect(r.stdout).toMatch(/passphrase/);
    expect(r.code).not.toBe(0);
  }, 60_000);
});
