// The full origin (origin-full.test.ts) with SSH hosts on loopback sshd: 2 clusters of 2 hosts, their
// storage off the 300 KiB tmpfs that holds the origin. With the agent, each 30 KiB output comes back with
// its task's exit and is written at the origin by gridsweep itself; with "transport": "exec" it is fetched
// over SFTP, which writes the file at the origin: both must stop the run with exit 4, blame no host or
// cluster and run no task twice; the same command then finishes the rest.
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { checkFinished, checkStopped, makeFullOrigin, recordOf, runWithinBound } from './support/full-origin.js';
import { useSshdFarm } from './support/sshd-suite.js';
import { Tmpfs } from './support/tmpfs.js';

const tmpfs = new Tmpfs();
afterAll(() => tmpfs.removeAll());

describe('gridsweep run on SSH hosts: the origin runs out of space', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'], c2: ['h21', 'h22'] });

  for (const transport of ['agent', 'exec'] as const) {
    it(`${transport}: ends with exit 4, no host or cluster down, no task run twice; after remounting bigger, the same command finishes`, async (ctx) => {
      const o = makeFullOrigin(tmpfs, `ssh-${transport}`, '300k', (_elsewhere, dir) => sshd.farm.realGridJson(dir, { transport }));
      if (!o) return ctx.skip(tmpfs.whyNot);
      const recordPath = join(o.elsewhere, 'record.jsonl');
      const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
      const [first, ms] = await runWithinBound(command);
      const journal = join(o.dir, '.gridsweep', 'sweep', 'journal.jsonl');
      const verified = checkStopped(first, ms, o.dir, recordOf(recordPath), journal);

      tmpfs.resize(o.dir, '4m');
      const second = await runGridsweep(command);
      checkFinished(second, o.dir, recordOf(recordPath), verified);
    }, 150_000);
  }
});
