// Host keys: checked against known_hosts (plain and hashed entries) and the system-wide files; a wrong key
// is refused before any command runs; --accept-new records an unknown host (hashed) and still refuses a
// changed key.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentEndpointError } from '../../backends/transport/endpoint.js';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';

describe('host key verification against a real sshd', () => {
  let farm: SshdFarm;

  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h1', 'h2'] });
  });
  afterAll(async () => {
    await farm?.stop();
  });

  /**
   * h1 (or `host`) checked against `knownHosts`, and the system-wide files `globalKnownHostsFiles`;
   * `acceptNewHostKey`: as if its ssh configuration said StrictHostKeyChecking accept-new.
   */
  function endpointWith(knownHosts: string, acceptNew: boolean, host = 'h1', globalKnownHostsFiles: readonly string[] = [], acceptNewHostKey = false): SshEndpoint {
    const grid = parseRealGrid(farm.realGridJson(farm.dir, { knownHosts }), join(farm.dir, 'grid.json'));
    const spec = grid.clusters[0]!.endpoints.find((e) => e.name === host) as SshEndpointSpec;
    return new SshEndpoint({ ...spec, globalKnownHostsFiles, ...(acceptNewHostKey ? { acceptNewHostKey } : {}) }, 'c1', farm.clusters[0]!.storage, 'keys', { acceptNew });
  }

  async function refusal(e: SshEndpoint): Promise<string> {
    const err = await e.connect().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(PermanentEndpointError);
    return (err as Error).message;
  }

  it('connects when known_hosts holds the right key', async () => {
    const e = endpointWith(farm.knownHosts, false);
    await e.connect();
    expect(e.isUp()).toBe(true);
    await e.close();
  });

  it('refuses a host whose key differs from known_hosts, even with --accept-new', async () => {
    // h1's entry carries h2's key: what a man in the middle would look like.
    const wrong = join(farm.dir, 'known_hosts_wrong');
    writeFileSync(wrong, `[127.0.0.1]:${farm.host('h1').port} ${farm.host('h2').hostKeyPub}\n`);
    for (const acceptNew of [false, true]) {
      const e = endpointWith(wrong, acceptNew);
      const err = await e.connect().then(() => undefined, (x: unknown) => x);
      expect(err).toBeInstanceOf(PermanentEndpointError);
      expect((err as Error).message).toMatch(/HOST KEY MISMATCH/);
      expect(e.isUp()).toBe(false);
    }
    expect(readFileSync(wrong, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('refuses an unknown host by default and records it with --accept-new', async () => {
    const fresh = join(farm.dir, 'known_hosts_fresh');
    writeFileSync(fresh, '');
    const refused = await endpointWith(fresh, false).connect().then(() => undefined, (x: unknown) => x);
    expect((refused as Error).message).toMatch(/not in .*--accept-new/);

    const first = endpointWith(fresh, true);
    await first.connect();
    await first.close();
    const lines = readFileSync(fresh, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\|1\|[^|]+\|[^ ]+ ssh-ed25519 /);
    // OpenSSH itself finds the hashed entry we wrote.
    const found = execFileSync('ssh-keygen', ['-F', `[127.0.0.1]:${farm.host('h1').port}`, '-f', fresh], { encoding: 'utf8' });
    expect(found).toContain(farm.host('h1').hostKeyPub.split(' ')[1]);

    const again = endpointWith(fresh, false);
    await again.connect();
    expect(again.isUp()).toBe(true);
    await again.close();
  });

  it('records an unknown host whose configuration says StrictHostKeyChecking accept-new, without --accept-new, and still refuses a changed key', async () => {
    const fresh = join(farm.dir, 'known_hosts_configured');
    writeFileSync(fresh, '');
    const e = endpointWith(fresh, false, 'h1', [], true);
    await e.connect();
    expect(e.isUp()).toBe(true);
    await e.close();
    expect(readFileSync(fresh, 'utf8')).toMatch(/^\|1\|[^|]+\|[^ ]+ ssh-ed25519 /);
    const wrong = join(farm.dir, 'known_hosts_configured_wrong');
    writeFileSync(wrong, `[127.0.0.1]:${farm.host('h1').port} ${farm.host('h2').hostKeyPub}\n`);
    expect(await refusal(endpointWith(wrong, false, 'h1', [], true))).toMatch(/HOST KEY MISMATCH/);
  });

  it('accepts hashed entries written by ssh-keygen -H', async () => {
    const hashed = join(farm.dir, 'known_hosts_hashed');
    writeFileSync(hashed, readFileSync(farm.knownHosts));
    execFileSync('ssh-keygen', ['-q', '-H', '-f', hashed]);
    expect(readFileSync(hashed, 'utf8')).not.toContain('127.0.0.1');
    const e = endpointWith(hashed, false, 'h2');
    await e.connect();
    expect(e.isUp()).toBe(true);
    await e.close();
  });

  it('finds a key in a system-wide known_hosts file, read only, after a missing one', async () => {
    const empty = join(farm.dir, 'known_hosts_empty');
    writeFileSync(empty, '');
    const missing = join(farm.dir, 'no_such_known_hosts');
    for (const acceptNew of [false, true]) {
      const e = endpointWith(empty, acceptNew, 'h1', [missing, farm.knownHosts]);
      await e.connect();
      expect(e.isUp()).toBe(true);
      await e.close();
    }
    // Known there, so nothing was added to the user's file.
    expect(readFileSync(empty, 'utf8')).toBe('');
    // Not there: the user's file is named, and the system-wide file that exists.
    const other = join(farm.dir, 'global_other_hosts');
    writeFileSync(other, `[127.0.0.1]:1 ${farm.host('h1').hostKeyPub}\n`);
    expect(await refusal(endpointWith(empty, false, 'h1', [missing, other]))).toContain(`is not in ${empty} (nor in ${other}). Add its key`);
  });

  it('refuses a key that a system-wide file holds changed, or marks @revoked, even beside the right one', async () => {
    const empty = join(farm.dir, 'known_hosts_empty2');
    writeFileSync(empty, '');
    const wrong = join(farm.dir, 'global_wrong');
    writeFileSync(wrong, `# site keys\n[127.0.0.1]:${farm.host('h1').port} ${farm.host('h2').hostKeyPub}\n`);
    for (const acceptNew of [false, true]) expect(await refusal(endpointWith(empty, acceptNew, 'h1', [wrong]))).toMatch(new RegExp(`HOST KEY MISMATCH .* different from ${wrong}:2\\.`));
    expect(readFileSync(empty, 'utf8')).toBe('');

    const revoked = join(farm.dir, 'global_revoked');
    writeFileSync(revoked, `@revoked * ${farm.host('h1').hostKeyPub}\n`);
    expect(await refusal(endpointWith(farm.knownHosts, false, 'h1', [revoked]))).toContain(`is marked @revoked in ${revoked}:1`);
  });
});
