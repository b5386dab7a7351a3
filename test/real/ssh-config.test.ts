// Real grid files read with an ssh client configuration (~/.ssh/config): a host named by an alias gets
// what `ssh ALIAS` would use, the grid file's own fields first; the defaults are ssh's (the agent, the
// first default key). Each case writes a home of its own.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { isEncryptedKeyFile, publicKeyOf } from '../../src/realgrid/key-files.js';
import type { SshEnvironment } from '../../src/realgrid/ssh-login.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/**
 * A home with ~/.ssh/config holding `config`, other files of ~/.ssh, and the environment naming it; with
 * `system`, a system-wide configuration in the home's etc/ssh (its files by name there).
 */
function home(config: string | undefined, files: Record<string, string> = {}, agentSocket?: string, system?: Record<string, string>): SshEnvironment {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-home-'));
  homes.push(dir);
  mkdirSync(join(dir, '.ssh', 'config.d'), { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, '.ssh', 'config'), config);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, '.ssh', name), text);
  for (const [name, text] of Object.entries(system ?? {})) {
    mkdirSync(dirname(join(dir, 'etc', 'ssh', name)), { recursive: true });
    writeFileSync(join(dir, 'etc', 'ssh', name), text);
  }
  const systemSshConfig = system !== undefined ? join(dir, 'etc', 'ssh', 'ssh_config') : undefined;
  return { home: dir, localUser: 'local', agentSocket, globalKnownHostsFiles: ['/site/known_hosts'], systemSshConfig };
}

function gridText(hosts: object[], extra: object = {}): string {
  return JSON.stringify({ realgrid: 1, ...extra, clusters: [{ name: 'c1', storage: '/s', hosts: hosts.map((h, i) => ({ name: `h${i}`, arch: 0, ...h })) }] }, null, 2);
}

function hostsOf(env: SshEnvironment, hosts: object[], extra: object = {}): SshEndpointSpec[] {
  return parseRealGrid(gridText(hosts, extra), '/grid/g.json', env).clusters[0]!.endpoints as SshEndpointSpec[];
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

describe('real grid files and the ssh client configuration', () => {
  it('takes an alias\'s HostName, Port, User, IdentityFile and UserKnownHostsFile, the first value found winning', () => {
    const env = home(
      [
        '# the cluster',
        'Host node? !node9',
        '  HostName %h.cluster.example.org',
        '  Port=2222',
        '  User alice',
        '  IdentityFile ~/.ssh/cluster_%r',
        '',
        'Host node1',
        '  User never # a later block: User was found above',
        'Host *',
        '  User everyone',
        '  IdentityFile "%d/.ssh/my key"',
        '  UserKnownHostsFile ~/.ssh/known_%h_%p',
      ].join('\n'),
    );
    const [n1, n9, other] = hostsOf(env, [{ address: 'node1' }, { address: 'node9' }, { address: 'other', port: 23, user: 'bob' }]);
    expect(n1).toMatchObject({ address: 'node1.cluster.example.org', port: 2222, user: 'alice', identityFile: join(env.home, '.ssh/cluster_alice'), agent: false, knownHostsFile: join(env.home, '.ssh/known_node1.cluster.example.org_2222') });
    // Excluded by !node9: only Host * applies.
    expect(n9).toMatchObject({ address: 'node9', port: 22, user: 'everyone', identityFile: join(env.home, '.ssh/my key') });
    // The grid file's fields come first.
    expect(other).toMatchObject({ address: 'other', port: 23, user: 'bob', knownHostsFile: join(env.home, '.ssh/known_other_23') });
  });

  it('puts the grid file\'s own fields, and its knownHosts for every host, first', () => {
    const env = home('Host n\n  HostName 10.0.0.1\n  User alice\n  IdentityFile ~/k\n  UserKnownHostsFile ~/kh\n');
    const [h] = hostsOf(env, [{ address: 'n', user: 'bob', agent: true }], { knownHosts: 'grid_known_hosts' });
    expect(h).toMatchObject({ address: '10.0.0.1', user: 'bob', agent: true, knownHostsFile: '/grid/grid_known_hosts' });
    expect(h!.identityFile).toBeUndefined();
  });

  it('looks for host keys in the system-wide files too: GlobalKnownHostsFile\'s (every one, tokens expanded, none), else the environment\'s', () => {
    const env = home('Host a\n  GlobalKnownHostsFile /etc/ssh/cluster_hosts "~/site keys/%h"\nHost b\n  GlobalKnownHostsFile none\nHost c\n  ProxyJump login\nHost *\n  IdentityFile ~/k\n');
    const [a, b, c, grid] = hostsOf(env, [{ address: 'a' }, { address: 'b' }, { address: 'c' }, { address: 'd', knownHosts: 'kh' }]);
    expect(a!.globalKnownHostsFiles).toEqual(['/etc/ssh/cluster_hosts', join(env.home, 'site keys/a')]);
    expect(b!.globalKnownHostsFiles).toEqual([]);
    expect(c!.globalKnownHostsFiles).toEqual(['/site/known_hosts']);
    expect(c!.jump!.globalKnownHostsFiles).toEqual(['/site/known_hosts']);
    // The grid file's knownHosts is the user's file: the system-wide ones are still read.
    expect(grid).toMatchObject({ knownHostsFile: '/grid/kh', globalKnownHostsFiles: ['/site/known_hosts'] });
  });

  it('reads the system-wide configuration after the user\'s, each from its start, Include relative to its folder; "sshConfig" alone reads its file', () => {
    const user = 'Host n1\n  User alice\nHost other\n  User carol\n';
    const system = {
      ssh_config: 'IdentityFile ~/site_key\nInclude ssh_config.d/*.conf\nHost n*\n  User bob\n  Port 2200\n',
      'ssh_config.d/10-nodes.conf': 'Host n2\n  HostName n2.cluster\n',
    };
    const env = home(user, {}, undefined, system);
    const [n1, n2] = hostsOf(env, [{ address: 'n1' }, { address: 'n2' }]);
    // The user's value first; the system file's first line applies to every host, not to the user's last block.
    expect(n1).toMatchObject({ address: 'n1', user: 'alice', port: 2200, identityFile: join(env.home, 'site_key') });
    expect(n2).toMatchObject({ address: 'n2.cluster', user: 'bob', port: 2200, identityFile: join(env.home, 'site_key') });
    const [alone] = hostsOf(env, [{ address: 'n1', identityFile: '/k' }], { sshConfig: join(env.home, '.ssh', 'config') });
    expect(alone).toMatchObject({ address: 'n1', user: 'alice', port: 22 });
    // Without a user's file, the system's alone.
    const [onlySystem] = hostsOf(home(undefined, {}, undefined, system), [{ address: 'n1' }]);
    expect(onlySystem).toMatchObject({ user: 'bob', port: 2200 });
  });

  it('lets in a host key not yet known where StrictHostKeyChecking says accept-new or no, and names a value ssh would refuse', () => {
    const env = home('Host a\n  StrictHostKeyChecking accept-new\nHost b\n  StrictHostKeyChecking=no\nHost c\n  StrictHostKeyChecking yes\nHost d\n  StrictHostKeyChecking maybe\nHost *\n  StrictHostKeyChecking ask\n  IdentityFile ~/k\n');
    const [a, b, c, e] = hostsOf(env, [{ address: 'a' }, { address: 'b' }, { address: 'c' }, { address: 'e' }]);
    expect([a, b].map((h) => h!.acceptNewHostKey)).toEqual([true, true]);
    expect([c, e].map((h) => h!.acceptNewHostKey)).toEqual([undefined, undefined]);
    expect(errorOf(() => hostsOf(env, [{ address: 'd' }]))).toBe(`${join(env.home, '.ssh', 'config')}:8:3: error: StrictHostKeyChecking maybe in the ssh client configuration is not yes, ask, accept-new, no nor off\n  fix: give one of them`);
  });

  it('reads Include (relative to ~/.ssh, globbed, in name order), and Match blocks in their place', () => {
    const env = home('Include config.d/*.conf\nMatch user root\n  User matched\nMatch all\n  Port 2200\n', {
      'config.d/20-b.conf': 'Host n\n  User second\n',
      'config.d/10-a.conf': 'Host n\n  User first\n',
      'config.d/ignored.txt': 'Host n\n  HostName ignored\n',
    });
    expect(hostsOf(env, [{ address: 'n', identityFile: 'k' }])[0]).toMatchObject({ address: 'n', user: 'first', port: 2200 });
  });

  it('applies Match blocks by host (after HostName), originalhost, user and localuser, never by exec nor others', () => {
    const env = home(
      [
        'Host n1',
        '  HostName n1.cluster.example.org',
        'Match exec "true" host *',
        '  Port 1',
        'Match host *.cluster.example.org originalhost n1,!n2',
        '  Port 2201',
        'Match user bob',
        '  IdentityFile ~/bob_key',
        'Match localuser local host n2',
        '  User from-localuser',
        'Match !originalhost n1,n2',
        '  User not-n1-nor-n2',
        'Match all',
        '  IdentityFile ~/k',
      ].join('\n'),
    );
    const [n1, n2, bob] = hostsOf(env, [{ address: 'n1' }, { address: 'n2' }, { address: 'n3', user: 'bob' }]);
    expect(n1).toMatchObject({ address: 'n1.cluster.example.org', port: 2201, user: 'local', identityFile: join(env.home, 'k') });
    expect(n2).toMatchObject({ address: 'n2', port: 22, user: 'from-localuser' });
    expect(bob).toMatchObject({ user: 'bob', identityFile: join(env.home, 'bob_key') });
    // Negated: n1 and n2 are excluded; n4 (no user in the grid file) takes it.
    expect(hostsOf(env, [{ address: 'n4' }])[0]!.user).toBe('not-n1-nor-n2');
    // A criterion not read here: its block does not apply. A criterion without its argument is an error.
    expect(hostsOf(home('Match address 10.0.0.0/8\n  User x\nHost *\n  IdentityFile ~/k\n'), [{ address: 'n' }])[0]!.user).toBe('local');
    expect(errorOf(() => hostsOf(home('Match host\n  User x\n'), [{ address: 'n' }]))).toMatch(/config:1:1: error: Match host without its argument/);
  });

  it('follows a ProxyJump, the jump host looked up too, its settings left out being the host\'s', () => {
    const env = home('Host node*\n  ProxyJump carol@login:2022\n  User alice\n  IdentityFile ~/k\nHost login\n  HostName login.example.org\nHost direct\n  ProxyJump none\n');
    const [n, d] = hostsOf(env, [{ address: 'node1' }, { address: 'direct', identityFile: 'k' }]);
    expect(n!.jump).toEqual({ address: 'login.example.org', port: 2022, user: 'carol', identityFile: join(env.home, 'k'), agent: false, knownHostsFile: join(env.home, '.ssh/known_hosts'), globalKnownHostsFiles: ['/site/known_hosts'] });
    expect(d!.jump).toBeUndefined();
    // The grid file's jump comes first.
    expect(hostsOf(env, [{ address: 'node1', jump: { address: 'other' } }])[0]!.jump).toMatchObject({ address: 'other', user: 'alice' });
  });

  it('refuses a ProxyCommand, a ProxyJump that leads back to itself and a bad Port, each at its place', () => {
    const env = home('Host pc\n  ProxyCommand nc -X 5 -x socks:1080 %h %p\nHost loop\n  ProxyJump a\nHost a\n  ProxyJump b\nHost b\n  ProxyJump a\nHost bad\n  Port 70000\nHost empty\n  ProxyJump gw,\nHost via\n  ProxyJump pc\n');
    const config = join(env.home, '.ssh', 'config');
    expect(errorOf(() => hostsOf(env, [{ address: 'pc', identityFile: 'k' }]))).toMatch(
      new RegExp(`^/grid/g\\.json:\\d+:\\d+: error: host "h0": the ssh client configuration gives it a ProxyCommand \\(${config}:2\\), which gridsweep does not run\\n  fix: give pc a ProxyJump there instead, or a "jump" here$`),
    );
    // A jump host with such a command: said of the host, naming the jump host.
    expect(errorOf(() => hostsOf(env, [{ address: 'via', identityFile: 'k' }]))).toMatch(/error: host "h0" goes through pc, whose ProxyCommand in the ssh client configuration \(.*config:2\) gridsweep does not run/);
    // Every host through gw, gw included: ssh calls it a jump host loop.
    const star = home('Host gw\n  HostName 10.0.0.9\nHost *\n  ProxyJump gw\n  IdentityFile ~/k\n');
    expect(errorOf(() => hostsOf(star, [{ address: 'n' }]))).toMatch(/error: host "h0": local@10\.0\.0\.9 would be its own jump host \(a jump host loop\)\n  fix: leave gw out of the Host line that gives the ProxyJump \(e\.g\. Host \* !gw\)$/);
    expect(errorOf(() => hostsOf(env, [{ address: 'loop', identityFile: 'k' }]))).toMatch(/error: host "h0" goes through more than 8 jump hosts in a row\n  fix: check the ProxyJump lines/);
    expect(errorOf(() => hostsOf(env, [{ address: 'bad', identityFile: 'k' }]))).toBe(`${config}:10:3: error: Port 70000 in the ssh client configuration is not a TCP port\n  fix: give a port, 1 to 65535`);
    expect(errorOf(() => hostsOf(env, [{ address: 'empty', identityFile: 'k' }]))).toBe(`${config}:12:3: error: ProxyJump gw,: an empty jump host\n  fix: write each jump host as [user@]host[:port], separated by commas`);
    // "jump" in the grid file: no ProxyCommand is looked for.
    expect(hostsOf(env, [{ address: 'pc', identityFile: 'k', jump: { address: 'gw' } }])[0]!.jump).toMatchObject({ address: 'gw' });
  });

  it('follows jump hosts behind jump hosts, as ssh does: a ProxyJump list, a jump host\'s own ProxyJump or ProxyCommand, the grid file\'s list', () => {
    const env = home(
      [
        'Host chain',
        '  ProxyJump bastion,carol@login:2022',
        'Host nested',
        '  ProxyJump login',
        'Host login',
        '  HostName login.example.org',
        '  ProxyJump bastion',
        'Host bastion',
        '  HostName bastion.example.org',
        '  User bob',
        'Host pc',
        '  ProxyCommand ssh -W %h:%p login',
        'Host *',
        '  IdentityFile ~/k',
      ].join('\n'),
    );
    const bastion = { address: 'bastion.example.org', port: 22, user: 'bob', identityFile: join(env.home, 'k'), agent: false, knownHostsFile: join(env.home, '.ssh/known_hosts'), globalKnownHostsFiles: ['/site/known_hosts'] };
    const [chain, nested, pc] = hostsOf(env, [{ address: 'chain' }, { address: 'nested' }, { address: 'pc' }]);
    // ProxyJump a,b: b is reached through a, and b's own ProxyJump is not read (ssh -J a b).
    expect(chain!.jump).toEqual({ address: 'login.example.org', port: 2022, user: 'carol', identityFile: join(env.home, 'k'), agent: false, knownHostsFile: join(env.home, '.ssh/known_hosts'), globalKnownHostsFiles: ['/site/known_hosts'], jump: bastion });
    // A jump host's own ProxyJump, and a ProxyCommand's jump host's: each reached as ssh would reach it.
    expect(nested!.jump).toMatchObject({ address: 'login.example.org', port: 22, user: 'local', jump: bastion });
    expect(pc!.jump).toMatchObject({ address: 'login.example.org', jump: bastion });
    // The grid file's list, in the order the hops are reached; its single jump host's ProxyJump is read too.
    const [listed, single] = hostsOf(env, [
      { address: 'n1', jump: [{ address: 'bastion' }, { address: '10.0.0.1', user: 'dave' }] },
      { address: 'n2', jump: { address: 'login' } },
    ]);
    expect(listed!.jump).toMatchObject({ address: '10.0.0.1', user: 'dave', jump: bastion });
    expect(single!.jump).toMatchObject({ address: 'login.example.org', jump: bastion });
    expect(errorOf(() => hostsOf(env, [{ address: 'n1', jump: [] }]))).toMatch(/\/clusters\/0\/hosts\/0\/jump/);
  });

  it('skips a system-wide configuration it cannot read, and points a ProxyCommand there to "sshConfig"', () => {
    // A folder where the file should be: present, and not readable as a file.
    const unreadable = { ...home('Host n\n  IdentityFile ~/k\n'), systemSshConfig: tmpdir() };
    expect(hostsOf(unreadable, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(unreadable.home, 'k') });
    const site = mkdtempSync(join(tmpdir(), 'gridsweep-site-'));
    homes.push(site);
    writeFileSync(join(site, 'ssh_config'), 'Host *\n  ProxyCommand corp-proxy %h %p\n  IdentityFile /k\n');
    const env = { ...home(undefined), systemSshConfig: join(site, 'ssh_config') };
    expect(errorOf(() => hostsOf(env, [{ address: 'n' }]))).toContain(`gives it a ProxyCommand (${join(site, 'ssh_config')}:2), which gridsweep does not run\n  fix: give n a ProxyJump there instead, or a "jump" here, with "sshConfig" naming a configuration of your own`);
  });

  it('reads a ProxyCommand that is a jump host written out (ssh -W %h:%p HOST, ssh HOST nc %h %p) as that jump host', () => {
    const env = home(
      [
        'Host a',
        '  ProxyCommand ssh -W %h:%p gw',
        'Host b',
        '  ProxyCommand exec /usr/bin/ssh -q -p 2022 -l carol -i ~/.ssh/gw_key gw.example.org -W [%h]:%p',
        'Host c',
        '  ProxyCommand ssh dave@gw nc %h %p',
        'Host d',
        '  ProxyCommand ssh -o StrictHostKeyChecking=no -W %h:%p gw',
        'Host e',
        '  ProxyCommand ssh -W %h:%p gw2',
        'Host gw2',
        '  ProxyCommand ssh -W %h:%p gw',
        'Host *',
        '  IdentityFile ~/k',
      ].join('\n'),
    );
    const [a, b, c] = hostsOf(env, [{ address: 'a' }, { address: 'b' }, { address: 'c' }]);
    expect(a!.jump).toEqual({ address: 'gw', port: 22, user: 'local', identityFile: join(env.home, 'k'), agent: false, knownHostsFile: join(env.home, '.ssh/known_hosts'), globalKnownHostsFiles: ['/site/known_hosts'] });
    expect(b!.jump).toMatchObject({ address: 'gw.example.org', port: 2022, user: 'carol', identityFile: join(env.home, '.ssh/gw_key') });
    expect(c!.jump).toMatchObject({ address: 'gw', port: 22, user: 'dave' });
    // An option not read here: the command is not a plain jump host, and is not run.
    expect(errorOf(() => hostsOf(env, [{ address: 'd' }]))).toMatch(/host "h0": the ssh client configuration gives it a ProxyCommand \(.*config:8\), which gridsweep does not run/);
    // A jump host with a ProxyCommand of its own: reached through that one.
    expect(hostsOf(env, [{ address: 'e' }])[0]!.jump).toMatchObject({ address: 'gw2', jump: { address: 'gw' } });
  });

  it('names a malformed line of the configuration', () => {
    const env = home('Host n\n  IdentityFile "~/unclosed\n');
    expect(errorOf(() => hostsOf(env, [{ address: 'n' }]))).toBe(`${join(env.home, '.ssh', 'config')}:2:16: error: an unterminated quote in the ssh client configuration\n  fix: close the quote`);
  });

  it('reads another configuration with "sshConfig", none with false, and a grid of local slots never', () => {
    const env = home('Host n\n  User from-default\n  IdentityFile ~/k\n', { other: 'Host n\n  User from-other\n  IdentityFile ~/k\n' });
    expect(hostsOf(env, [{ address: 'n' }])[0]!.user).toBe('from-default');
    expect(hostsOf(env, [{ address: 'n' }], { sshConfig: join(env.home, '.ssh', 'other') })[0]!.user).toBe('from-other');
    expect(hostsOf(env, [{ address: 'n', identityFile: 'k' }], { sshConfig: false })[0]!.user).toBe('local');
    expect(errorOf(() => hostsOf(env, [{ address: 'n' }], { sshConfig: '/nowhere/config' }))).toMatch(/^\/nowhere\/config:1:1: error: cannot read the ssh client configuration \(no such file\)/);
    const broken = home('Host "n\n');
    const local = JSON.stringify({ realgrid: 1, clusters: [{ name: 'c1', storage: '/s', hosts: { type: 'local', slots: 1 } }] });
    expect(parseRealGrid(local, '/grid/g.json', broken).clusters).toHaveLength(1);
  });

  it('leaves a default or configured key protected by a passphrase to the agent, and keeps it without one', () => {
    const keys = mkdtempSync(join(tmpdir(), 'gridsweep-keys-'));
    homes.push(keys);
    const keygen = (name: string, passphrase: string, format: string[] = []) => {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', join(keys, name), ...format]);
      return readFileSync(join(keys, name), 'utf8');
    };
    const locked = keygen('locked', 'secret');
    const open = keygen('open', '');
    const pem = (type: 'pkcs1' | 'pkcs8', cipher?: string) =>
      generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type, format: 'pem', ...(cipher !== undefined ? { cipher, passphrase: 'secret' } : {}) }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
    const cases = [
      [locked, true],
      [open, false],
      [pem('pkcs1', 'aes-128-cbc'), true],
      [pem('pkcs8', 'aes-128-cbc'), true],
      [pem('pkcs1'), false],
    ] as const;
    for (const [text, encrypted] of cases) {
      writeFileSync(join(keys, 'probe'), text);
      expect(isEncryptedKeyFile(join(keys, 'probe'))).toBe(encrypted);
    }
    expect(isEncryptedKeyFile(join(keys, 'missing'))).toBe(false);
    const withAgent = home('Host c\n  IdentityFile ~/.ssh/configured\n', { id_ed25519: locked, configured: locked }, '/run/agent.sock');
    const [d, c] = hostsOf(withAgent, [{ address: 'n' }, { address: 'c' }]);
    expect([d!.identityFile, d!.agent, c!.identityFile, c!.agent]).toEqual([undefined, true, undefined, true]);
    // The agent's copy of the key left to it goes first: the login names that key.
    expect([d!.agentKeyFile, c!.agentKeyFile]).toEqual([join(withAgent.home, '.ssh/id_ed25519'), join(withAgent.home, '.ssh/configured')]);
    // IdentitiesOnly: of the agent's keys only that copy; a key without a passphrase alone, without the agent.
    const only = home('Host *\n  IdentitiesOnly yes\n', { id_ed25519: locked }, '/run/agent.sock');
    expect(hostsOf(only, [{ address: 'n' }])[0]).toMatchObject({ agent: true, agentKeyFile: join(only.home, '.ssh/id_ed25519'), identitiesOnly: true });
    const onlyOpen = home('Host *\n  IdentitiesOnly yes\n', { id_ed25519: open }, '/run/agent.sock');
    expect(hostsOf(onlyOpen, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(onlyOpen.home, '.ssh/id_ed25519'), agent: false });
    expect(errorOf(() => hostsOf(home('Host *\n  IdentitiesOnly maybe\n', { id_ed25519: open }), [{ address: 'n' }]))).toMatch(/config:2:3: error: IdentitiesOnly maybe in the ssh client configuration is not yes nor no\n  fix: give yes or no$/);
    // IdentityAgent: another agent's socket (no SSH_AUTH_SOCK needed), none, or SSH_AUTH_SOCK's.
    const elsewhere = home('Host *\n  IdentityAgent ~/.1password/agent.sock\n', { id_ed25519: locked });
    expect(hostsOf(elsewhere, [{ address: 'n' }])[0]).toMatchObject({ agent: true, agentSocket: join(elsewhere.home, '.1password/agent.sock'), agentKeyFile: join(elsewhere.home, '.ssh/id_ed25519') });
    const without = home('Host *\n  IdentityAgent none\n', { id_ed25519: locked }, '/run/agent.sock');
    expect(hostsOf(without, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(without.home, '.ssh/id_ed25519'), agent: false });
    const fromEnvironment = hostsOf(home('Host *\n  IdentityAgent $SSH_AUTH_SOCK\n', { id_ed25519: open }, '/run/agent.sock'), [{ address: 'n' }])[0]!;
    expect([fromEnvironment.agent, fromEnvironment.agentSocket]).toEqual([true, undefined]);
    expect(errorOf(() => hostsOf(home('Host *\n  IdentityAgent $GPG_AGENT\n', { id_ed25519: open }), [{ address: 'n' }]))).toMatch(/config:2:3: error: IdentityAgent \$GPG_AGENT: gridsweep reads no variable but SSH_AUTH_SOCK for the agent's socket\n  fix: write the socket's path$/);
    // The public half the agent's copy is found by: the .pub beside the key, else the key's own header.
    const publicHalf = execFileSync('ssh-keygen', ['-y', '-f', join(keys, 'open')], { encoding: 'utf8' }).split(' ')[1]!;
    writeFileSync(join(keys, 'probe'), locked);
    expect(publicKeyOf(join(keys, 'probe'))?.toString('base64')).toBe(execFileSync('ssh-keygen', ['-y', '-P', 'secret', '-f', join(keys, 'locked')], { encoding: 'utf8' }).split(' ')[1]);
    writeFileSync(join(keys, 'probe.pub'), `ssh-ed25519 ${publicHalf} comment\n`);
    expect(publicKeyOf(join(keys, 'probe'))?.toString('base64')).toBe(publicHalf);
    writeFileSync(join(keys, 'probe-pem'), pem('pkcs1', 'aes-128-cbc'));
    expect(publicKeyOf(join(keys, 'probe-pem'))).toBeUndefined();
    const noAgent = home(undefined, { id_ed25519: locked });
    expect(hostsOf(noAgent, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(noAgent.home, '.ssh/id_ed25519'), agent: false });
    const openKey = home(undefined, { id_ed25519: open }, '/run/agent.sock');
    expect(hostsOf(openKey, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(openKey.home, '.ssh/id_ed25519'), agent: true });
    // Named in the grid file: kept as named.
    expect(hostsOf(withAgent, [{ address: 'n', identityFile: '~/.ssh/id_ed25519' }])[0]).toMatchObject({ identityFile: join(withAgent.home, '.ssh/id_ed25519'), agent: false });
  });

  it('uses ssh\'s own credentials when none are named: the agent, and the first default key', () => {
    const keyed = home(undefined, { id_ecdsa: 'key', id_rsa: 'key' }, '/run/agent.sock');
    expect(hostsOf(keyed, [{ address: 'n' }])[0]).toMatchObject({ identityFile: join(keyed.home, '.ssh/id_ecdsa'), agent: true, user: 'local', knownHostsFile: join(keyed.home, '.ssh/known_hosts') });
    const agentOnly = hostsOf(home(undefined, {}, '/run/agent.sock'), [{ address: 'n' }])[0]!;
    expect(agentOnly.agent).toBe(true);
    expect(agentOnly.identityFile).toBeUndefined();
    expect(errorOf(() => hostsOf(home(undefined), [{ address: 'n' }]))).toMatch(/error: host "h0" names no credentials, and none were found\n  fix: add "identityFile": "path\/to\/key" or "agent": true \(or an IdentityFile for n in ~\/\.ssh\/config, or start ssh-agent\)/);
  });
});
