// When a real run can get no more hosts (backends/real/hosts-to-come.ts): only once every batch cluster's
// pool has given up and had its last job end, and every machine of the grid file with hosts has left
// for good. A machine that merely failed may come back, so it keeps the run going.
import { describe, expect, it } from 'vitest';
import { HostsToCome } from '../../backends/real/hosts-to-come.js';
import type { Endpoint } from '../../backends/transport/endpoint.js';
import type { HostPool } from '../../backends/transport/registry.js';

/** Only what HostsToCome reads of a machine and a pool. */
const machine = (...hostIds: string[]): Endpoint => ({ spec: { hostIds } }) as unknown as Endpoint;
const pool = (clusterId: string): HostPool => ({ clusterId }) as unknown as HostPool;

describe('hosts still to come', () => {
  it('ends the run once every pool is exhausted and no machine of the file has hosts', async () => {
    const h = new HostsToCome();
    h.machine(machine()); // a Slurm cluster's storage: no hosts
    const pools = [pool('a'), pool('b')];
    h.poolExhausted('a', 'why a', pools, () => false);
    expect(h.why).toBeUndefined(); // b still brings hosts
    h.poolExhausted('b', 'why b', pools, () => false);
    expect(h.why).toBe('no host is left to run them: cluster a was given up: why a; cluster b was given up: why b');
    await expect(h.noneLeft).resolves.toBe(h.why);
  });

  it('a machine with hosts keeps the run going until they have all left for good', () => {
    const h = new HostsToCome();
    h.machine(machine('s1', 's2'));
    const pools = [pool('hpc')];
    const removed = new Set<string>(['s1']);
    h.poolExhausted('hpc', 'idle pilots', pools, (id) => removed.has(id));
    expect(h.why).toBeUndefined(); // s2 may still come back
    removed.add('s2');
    h.poolExhausted('hpc', 'idle pilots', pools, (id) => removed.has(id));
    expect(h.why).toMatch(/^no host is left to run them: cluster hpc was given up: idle pilots$/);
  });
});
