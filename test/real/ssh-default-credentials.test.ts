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
  const crowdedSocket = join(dir, 'crowded.sock');
  let agent: ChildProcess | undefined;
  let crowded: ChildProcess | undefined;

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
    // A second agent holding six other keys before the farm's: sshd (MaxAuthTries 6) drops a client that
    // offers them all first.
    crowded = spawn('ssh-agent', ['-D', '-a', crowdedSocket], { stdio: 'ignore' });
    await until(() => existsSync(crowdedSocket), 'ssh-agent listening', 10_000);
    for (let k = 0; k < 6; k++) {
      const other = join(dir, `other_${k}`);
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
      execFileSync('ssh-add', ['-q', other], { env: { ...process.env, SSH_AUTH_SOCK: crowdedSocket }, stdio: 'ignore' });
    }
    execFileSync('ssh-add', ['-q', sshd.farm.identityFile], { env: { ...process.env, SSH_AUTH_SOCK: crowdedSocket }, stdio: 'ignore' });
  });
  afterAll(() => {
    agent?.kill();
    crowded?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A home whose ~/.ssh/cluster_key is the farm's key with a passphrase (its .pub beside it when `withPub`) and
   * whose ~/.ssh/config gives every host `lines`.
   */
  function homeWithClusterKey(name: string, lines: string, withPub: boolean): string {
    const h = join(dir, name);
    mkdirSync(join(h, '.ssh'), { recursive: true });
    const key = join(h, '.ssh', 'cluster_key');
    copyFileSync(sshd.farm.identityFile, key);
    execFileSync('ssh-keygen', ['-q', '-p', '-P', '', '-N', 'secret', '-f', key]);
    if (withPub) writeFileSync(`${key}.pub`, execFileSync('ssh-keygen', ['-y', '-f', sshd.farm.identityFile], { encoding: 'utf8' }));
    writeFileSync(join(h, '.ssh', 'config'), `Host *\n  ${lines}\n`);
    return h;
  }

  /** Runs a sweep on the farm's host, named without credentials (`sshConfig`: the configuration to read, else none). */
  async function run(env: { HOME: string; SSH_AUTH_SOCK?: string }, sshConfig?: string) {
    const origin = sshd.makeOrigin(sweepOf(2, '0.1'));
    const grid = JSON.parse(sshd.farm.realGridJson(origin.dir)) as { sshConfig?: string | false; clusters: { hosts: { identityFile?: string }[] }[] };
    if (sshConfig !== undefined) grid.sshConfig = sshConfig;
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

  // As ssh: the agent's copy of the configured key goes first (with IdentitiesOnly, alone), found by the
  // key file's public half (the .pub beside it, or the key's own unencrypted header).
  it.each([
    ['IdentityFile ~/.ssh/cluster_key', true],
    ['IdentityFile ~/.ssh/cluster_key\n  IdentitiesOnly yes', false],
  ])('logs in with the agent\'s copy of the configured key first, among many agent keys (%s, .pub beside it: %s)', async (lines, withPub) => {
    const h = homeWithClusterKey(`crowded-${withPub}`, lines, withPub);
    const r = await run({ HOME: h, SSH_AUTH_SOCK: crowdedSocket }, join(h, '.ssh', 'config'));
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
  }, 60_000);

  it('logs in with the agent the configuration\'s IdentityAgent names, SSH_AUTH_SOCK unset', async () => {
    const h = homeWithClusterKey('identity-agent', `IdentityFile ~/.ssh/cluster_key\n  IdentityAgent ${agentSocket}`, false);
    const r = await run({ HOME: h }, join(h, '.ssh', 'config'));
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
  }, 60_000);

  it('sets the host aside, saying what to do, when sshd refuses the agent\'s keys one too many', async () => {
    // No key named anywhere: the agent's six other keys go first, and sshd cuts the login short.
    const h = join(dir, 'crowded-unnamed');
    mkdirSync(join(h, '.ssh'), { recursive: true });
    const r = await run({ HOME: h, SSH_AUTH_SOCK: crowdedSocket });
    expect(r.stdout).toMatch(/^UNUSABLE h1: h1 \(root@\[127\.0\.0\.1\]:\d+\): refused the login after too many keys were offered; name its key with IdentityFile and IdentitiesOnly yes in ~\/\.ssh\/config/m);
    expect(r.code).not.toBe(0);
  }, 60_000);

  it('with IdentitiesOnly, offers none of the agent\'s keys but the configured one\'s copy', async () => {
    // The configured key is not the agent's: ssh offers it alone (and cannot use it), not the agent's six.
    const h = join(dir, 'crowded-only-missing');
    mkdirSync(join(h, '.ssh'), { recursive: true });
    const key = join(h, '.ssh', 'cluster_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'secret', '-f', key]);
    writeFileSync(join(h, '.ssh', 'config'), 'Host *\n  IdentityFile ~/.ssh/cluster_key\n  IdentitiesOnly yes\n');
    const r = await run({ HOME: h, SSH_AUTH_SOCK: crowdedSocket }, join(h, '.ssh', 'config'));
    expect(r.stdout).toMatch(/^UNUSABLE h1: .*authentication refused/m);
    expect(r.stdout).not.toContain('too many keys');
    expect(r.code).not.toBe(0);
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
