// The controller killed (SIGKILL) while tasks run, then resumed: the agent lets the running tasks finish
// without it, and the resumed run collects them (their outputs fetched and verified) instead of running
// them again. On local slots, whose agent is a child process that outlives the controller as an SSH
// host's agent outlives its connection. Also killed the moment a task is launched: its 'started' line is
// written (not yet fsync'd, see backends/real/journal.ts) before the launch, so the killed run leaves it
// and the resumed run collects that attempt.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { expectKilledRunCollected, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const origins: Origin[] = [];
const dirs: string[] = [];
afterAll(() => {
  origins.forEach((o) => rmSync(o.dir, { recursive: true, force: true }));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('a resumed run collects what finished while no controller ran', () => {
  it('tasks running when the controller was killed are collected, not run again', async () => {
    const o = makeOrigin({ realGridJson: (dir) => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }) }, 2, 3);
    origins.push(o);
    // 4 tasks of 3 s on 2 slots: two are running when the controller is killed
    await expectKilledRunCollected(o, 2, 2, 'here\\.[12]');
  }, 60_000);

  it('a controller SIGKILLed the moment a task is launched leaves its started line, and the resumed run collects it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-kill-at-launch-'));
    dirs.push(dir);
    const marks = join(dir, 'launched');
    mkdirSync(marks);
    // Task i first leaves a mark (it has been launched), then works 2 s and writes its output.
    const sweepPath = join(dir, 'sweep.json');
    writeFileSync(
      sweepPath,
      JSON.stringify({
        sweep: 1,
        command: ['sh', '-c', 'touch "$1/$2" && sleep 2 && printf "task %s\\n" "$2" > "$3"', 'task', marks, '{i}', '{out}'],
        parameters: { i: { from: 1, to: 4 } },
        outputs: { out: 'results/{i}.txt' },
        estimates: { runTimeS: 2, outputSizeBytes: 10 },
      }),
    );
    const gridPath = join(dir, 'grid.json');
    writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }));
    const journalPath = join(dir, 'journal.jsonl');
    const args = ['run', sweepPath, '--grid', gridPath, '--journal', journalPath, '--heuristic', 'workqueue', '--no-watch'];

    // The first run, SIGKILLed as soon as a mark appears (polled every millisecond).
    const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
    const poll = setInterval(() => {
      if (readdirSync(marks).length > 0) {
        child.kill('SIGKILL');
        clearInterval(poll);
      }
    }, 1);
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    clearInterval(poll);
    clearTimeout(limit);
    expect(signal).toBe('SIGKILL');
    // Every task launched before the kill (mark i is work i-1: works are numbered from 0 in the
    // parameters' order) has its 'started' line in the journal the killed controller left.
    const launched = readdirSync(marks).map((m) => Number(m) - 1);
    expect(launched.length).toBeGreaterThan(0);
    const started = readJournal(journalPath).flatMap((e) => (e.type === 'started' ? [e.work] : []));
    for (const work of launched) expect(started).toContain(work);
    expect(readJournal(journalPath).some((e) => e.type === 'verified')).toBe(false);

    // The agent lets them finish (2 s); the resumed run collects them and runs the rest.
    await new Promise((r) => setTimeout(r, 3000));
    const second = await runCli([...args, '--resume'], () => undefined);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    for (const work of launched) expect(second.stdout).toMatch(new RegExp(`collected task ${work} on here\\.[12]: it finished while gridsweep was not running`));
    expect(second.stdout).toMatch(/tasks: 4 done and verified, 0 skipped/);
    // Each task verified exactly once, with its output at the origin.
    const verified = readJournal(journalPath).flatMap((e) => (e.type === 'verified' ? [e.work] : []));
    expect(verified.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    for (let i = 1; i <= 4; i++) {
      expect(existsSync(join(dir, 'results', `${i}.txt`))).toBe(true);
      expect(readFileSync(join(dir, 'results', `${i}.txt`), 'utf8')).toBe(`task ${i}\n`);
    }
  }, 90_000);
});
