// `gridsweep run` over links that lose packets at random (each host of a lossy cluster drops that share of
// what it exchanges with the origin, both ways): TCP retransmits, SSH channels stall for seconds, logins
// and commands overrun their deadlines, keep-alives time out and hosts come and go. However slowly, each
// run ends by itself with every task verified exactly once, none counted failed, and every output right;
// with either transport. (Every cluster at 30 % also ends, but can take minutes.)
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { expectEachTaskDoneOnce, runCli } from '../support/run-support.js';

const SEEDS = 12;
const TASKS = 2 * SEEDS;
/** Without loss these 24 one-second tasks on four hosts take about 10 s. */
const LIMIT_S = 120;

describe.each(['exec', 'agent'] as const)('gridsweep run (transport %s) over links that lose packets', (transport) => {
  const block = gridForBlock([
    { name: 'c0', hosts: ['a0', 'a1'] },
    { name: 'c1', hosts: ['b0', 'b1'] },
  ]);

  async function runLossy(loss: { c0?: number; c1?: number }): Promise<void> {
    const grid = block.grid;
    grid.setLinkLoss('c0', loss.c0);
    grid.setLinkLoss('c1', loss.c1);
    try {
      const origin = block.origin(SEEDS, 1, { transport, deadlines: { probeS: 5, loginS: 10, commandS: 15 } });
      const startedMs = Date.now();
      const lines: string[] = [];
      const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--heuristic', 'workqueue', '--no-watch'];
      const r = await runCli(args, (line) => lines.push(`${((Date.now() - startedMs) / 1000).toFixed(1)} s: ${line}`), LIMIT_S);
      const log = `--- the run's output ---\n${lines.join('\n')}\n${r.stderr}`;
      try {
        expect(r.killedAtLimit, `the run was still going after ${LIMIT_S} s`).toBe(false);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`tasks: ${TASKS} done and verified, 0 skipped \\(verified before\\), 0 failed, of ${TASKS}`));
        // A connection lost is the host's failure, not the task's: no task attempt counts as failed.
        expect(r.stdout).not.toMatch(/^failed /m);
        expectEachTaskDoneOnce(origin, SEEDS);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${log}`);
      }
    } finally {
      grid.setLinkLoss('c0', undefined);
      grid.setLinkLoss('c1', undefined);
    }
  }

  it('one cluster losing 30 % of its packets each way', async () => {
    await runLossy({ c1: 0.3 });
  }, 180_000);

  it('every cluster losing 10 % of its packets each way', async () => {
    await runLossy({ c0: 0.1, c1: 0.1 });
  }, 180_000);
});
