// Loopback sshd hosts (test/support/sshd.ts) for the tests of one describe block: started before its first
// test and stopped after its last, together with the origin directories its tests made.
import { afterAll, beforeAll } from 'vitest';
import { startSshdFarm, type SshdFarm } from '../../support/sshd.js';
import { makeOrigin, type Origin } from './origin.js';

export interface SshdSuite {
  /** The running farm: use it in tests and hooks, not while the block is being defined (it starts in beforeAll). */
  readonly farm: SshdFarm;
  /** A new origin holding `sweep` (see makeOrigin), removed after the block. */
  makeOrigin(sweep: object): Origin;
}

/** Call inside describe(): registers the beforeAll that starts the farm and the afterAll that stops it. */
export function useSshdFarm(layout: Readonly<Record<string, readonly string[]>>, options: Parameters<typeof startSshdFarm>[1] = {}): SshdSuite {
  let farm: SshdFarm | undefined;
  const origins: Origin[] = [];
  beforeAll(async () => {
    farm = await startSshdFarm(layout, options);
  });
  afterAll(async () => {
    await farm?.stop();
    for (const o of origins) o.remove();
  });
  return {
    get farm(): SshdFarm {
      if (!farm) throw new Error('the sshd farm is not running: it starts in beforeAll and stops in afterAll');
      return farm;
    },
    makeOrigin(sweep) {
      const origin = makeOrigin(sweep);
      origins.push(origin);
      return origin;
    },
  };
}
