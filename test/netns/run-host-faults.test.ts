// `gridsweep run` on namespaced hosts that fail the way machines do: every process of a host killed mid-run
// (its sshd and the session serving the run too); every process of a host stopped (SIGSTOP: its TCP
// connection stays open and nothing answers), for good or for a while; a host whose login shell hangs
// from the start (a start-up file that never returns, as on a network home that hangs), and one whose
// session stops answering while its login command runs (a keep-alive timeout then). Each run ends with
// every task verified exactly once, says what happened to the host, and does not wait for it to come back;
// so does a run one of whose clusters has a full storage disk;
// with either transport: an SSH channel per command, or every command through the agent on one channel.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const SEEDS = 12;
const TASKS = 2 * SEEDS;
const TASK_S = 1;
/** A run of these 24 one-second tasks on three hosts takes about 10 s; one that needs this long waited on the faulty host. */
const LIMIT_S = 50;

describe.each(['exec', 'agent'] as const)('gridsweep run (transport %s) when a host crashes or hangs', (transport) => {
  let grid: NetnsGrid;
  const origins: Origin[] = [];

  beforeAll(async () => {
    grid = await startNetnsGrid([
      { name: 'c0', hosts: ['a0', 'a1'] },
      { name: 'c1', hosts: ['b0', 'b1'] },
    ]);
  });
  afterAll(async () => {
    grid?.continueHost('b0');
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  });

  /**
   * Runs the sweep under the work queue; `disturb` is called once b0 has finished its first task (or
   * never, when it is undefined). Checks that the run ended by itself, verified every task exactly once
   * and said that b0 was down; returns its output, with each line's time since the start.
   */
  async function runDisturbed(gridExtra: Record<string, unknown>, disturb: (() => void) | undefined, taskS = TASK_S, limitS = LIMIT_S) {
    const origin = makeOrigin(grid, SEEDS, taskS, { transport, ...gridExtra });
    origins.push(origin);
    let disturbed = false;
    const lines: string[] = [];
    const startedMs = Date.now();
    const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--heuristic', 'workqueue'];
    const r = await runCli(
      args,
      (line) => {
        lines.push(`${((Date.now() - startedMs) / 1000).toFixed(1)} s: ${line}`);
        if (disturb && !disturbed && /^done .* on b0 /.test(line)) {
          disturbed = true;
          disturb();
        }
      },
      limitS,
    );
    const log = `--- the run's output ---\n${lines.join('\n')}\n${r.stderr}`;
    try {
      expect(r.killedAtLimit, `the run was still going after ${limitS} s`).toBe(false);
      if (disturb) expect(disturbed).toBe(true);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`tasks: ${TASKS} done and verified, 0 skipped \\(verified before\\), 0 failed, of ${TASKS}`));
      expectEachTaskDoneOnce(origin, SEEDS);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${log}`);
    }
    return { stdout: r.stdout, log };
  }

  it('every process of a host killed mid-run', async () => {
    try {
      const { stdout, log } = await runDisturbed({}, () => grid.killHost('b0'));
      expect(stdout, log).toMatch(/^down +b0/m);
    } finally {
      await grid.restartHost('b0');
    }
  }, 120_000);

  it('every process of a host stopped mid-run for longer than the run: noticed by the heartbeat, not TCP, and the run ends while the host still hangs', async () => {
    // Keep-alives an order of magnitude slower than the load probe's deadline: the probe notices the hang.
    const extra = { keepalive: { intervalS: 60, countMax: 3 }, deadlines: { probeS: 3 } };
    let hungAtMs = 0;
    let downAfterS = Infinity;
    try {
      const { stdout, log } = await runDisturbed(extra, () => {
        hungAtMs = Date.now();
        expect(grid.hangHost('b0')).toBeGreaterThan(0);
      });
      expect(stdout, log).toMatch(/^down +b0: .*no answer to the load probe within 3 s/m);
      downAfterS = (Date.now() - hungAtMs) / 1000;
      expect(downAfterS, log).toBeLessThan(LIMIT_S);
    } finally {
      grid.continueHost('b0');
    }
  }, 120_000);

  // The agent's run stops the host for the 60 s of issue 13 (about 85 s in all), the exec transport's for
  // 12 s (about 25 s), each with tasks long enough that the run is still going when the host wakes up.
  const pauseS = transport === 'agent' ? 60 : 12;
  it(`every process of a host stopped for ${pauseS} s, then continued while the run still tries to reach it`, async () => {
    let timer: NodeJS.Timeout | undefined;
    let continuedAtS = Infinity;
    const startedMs = Date.now();
    try {
      const { stdout, log } = await runDisturbed(
        { deadlines: { probeS: 3, loginS: 8 } },
        () => {
          grid.hangHost('b0');
          timer = setTimeout(() => {
            grid.continueHost('b0');
            continuedAtS = (Date.now() - startedMs) / 1000;
          }, pauseS * 1000);
        },
        transport === 'agent' ? 10 : 3,
        transport === 'agent' ? 150 : 80,
      );
      expect(stdout, log).toMatch(/^down +b0/m);
      // Woken up while the run went on, the host answered again and was offered tasks.
      const up = [...log.matchAll(/^([\d.]+) s: up +b0$/gm)].map((m) => Number(m[1]));
      expect(up.some((t) => t >= continuedAtS), log).toBe(true);
    } finally {
      clearTimeout(timer);
      grid.continueHost('b0');
    }
  }, 180_000);

  it('a host that stops answering while its login command runs: a keep-alive timeout then, and the run goes on without it', async () => {
    // The login shell stops its own sshd session process: the connection is up, the first command never
    // returns and the keep-alives go unanswered, so the client reports a keep-alive timeout before the
    // login deadline. Every later login does the same.
    const bashrc = join(grid.host('b0').home, '.bashrc');
    writeFileSync(bashrc, 'kill -STOP $PPID\n');
    try {
      const { stdout, log } = await runDisturbed({ keepalive: { intervalS: 1, countMax: 2 }, deadlines: { loginS: 20 } }, undefined);
      expect(stdout, log).toMatch(/^down +b0: cannot connect: .*the connection went down during the login command \(keep-alive timeout\)/m);
      expect(stdout, log).not.toMatch(/^unusable +b0/m);
      expect(stdout, log).not.toMatch(/ on b0 /);
    } finally {
      rmSync(bashrc, { force: true });
      grid.killHost('b0');
      await grid.restartHost('b0');
    }
  }, 120_000);

  it("a host whose login shell hangs from the start: the run starts without it and ends while it still hangs", async () => {
    const bashrc = join(grid.host('b0').home, '.bashrc');
    writeFileSync(bashrc, 'sleep 600\n');
    try {
      const { stdout, log } = await runDisturbed({ deadlines: { loginS: 8 } }, undefined);
      expect(stdout, log).toMatch(/^down +b0: cannot connect: .*no answer from its login shell within 8 s/m);
      expect(stdout, log).not.toMatch(/ on b0 /);
      // The run started as soon as the other hosts were up, not after b0's login deadline: before b0 was
      // given up. (Not a bound in seconds: with three test files at a time, the other hosts took 9 s to
      // come up in one clean-clone run, and b0's deadline began with theirs.)
      const start = /^([\d.]+) s: start /m.exec(log);
      const down = /^([\d.]+) s: down +b0:/m.exec(log);
      expect(start, log).not.toBeNull();
      expect(down, log).not.toBeNull();
      expect(Number(start![1]), log).toBeLessThan(Number(down![1]));
    } finally {
      rmSync(bashrc, { force: true });
    }
  }, 120_000);
});

describe.each(['exec', 'agent'] as const)("gridsweep run (transport %s) when a cluster's storage disk is full", (transport) => {
  let grid: NetnsGrid;
  const origins: Origin[] = [];

  beforeAll(async () => {
    // c1's storage holds 16 KB: the large model (about 60 KB) cannot be stored there.
    grid = await startNetnsGrid([
      { name: 'c0', hosts: ['a0', 'a1'] },
      { name: 'c1', hosts: ['b0', 'b1'], storageBytes: 16 * 1024 },
    ]);
  });
  afterAll(async () => {
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  });

  it('the other cluster takes the tasks, every one verified once, and the run says why', async () => {
    const origin = makeOrigin(grid, SEEDS, TASK_S, { transport });
    origins.push(origin);
    const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--heuristic', 'workqueue'];
    const r = await runCli(args, () => undefined, LIMIT_S);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    // Whichever c1 meets first: an input it cannot store (the cluster is failed), or tasks that cannot
    // write their outputs (its hosts are set aside).
    expect(r.stdout, log).toMatch(/^down +(c1: input \d+ could not be stored: .*(No space left on device|cannot write)|b[01]: set aside .* after repeated task failures)/m);
    expect(r.stdout, log).toMatch(new RegExp(`tasks: ${TASKS} done and verified, 0 skipped \\(verified before\\), 0 failed, of ${TASKS}`));
    expectEachTaskDoneOnce(origin, SEEDS);
  }, 120_000);
});
