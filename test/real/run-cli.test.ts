// `gridsweep run` end to end: the real Scheduler, the SSH backend and loopback sshd servers (2 clusters x
// 2 hosts). A 60-task sweep with shared inputs completes with every output verified and each shared input
// sent once per cluster, even though one host's sshd is killed mid-run; a controller killed with SIGKILL
// is resumed from its journal without redoing verified tasks.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { spawnGridsweep } from './support/gridsweep-from-source.js';
import { expectedResult, inputSendsInRecord, sweepOf, type Origin } from './support/origin.js';
import { useSshdFarm } from './support/sshd-suite.js';

interface CliRun {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: string | null; stderr: string }>;
}

// A hung run must fail with what it printed, not with a bare test timeout.
const RUN_DEADLINE_MS = 50_000;

function startCli(args: readonly string[], onLine: (line: string, run: CliRun) => void = () => undefined): CliRun {
  const child = spawnGridsweep(args);
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  const deadline = setTimeout(() => {
    child.kill('SIGKILL');
    console.error(`gridsweep ${args.join(' ')} did not end within ${RUN_DEADLINE_MS} ms; it printed:\n${[...lines, partial].join('\n')}\n--- stderr ---\n${stderr}`);
  }, RUN_DEADLINE_MS);
  const run: CliRun = {
    child,
    lines,
    exited: new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        clearTimeout(deadline);
        resolve({ code, signal, stderr });
      }),
    ),
  };
  child.stdout!.on('data', (d: Buffer) => {
    partial += d.toString();
    const parts = partial.split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      onLine(line, run);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return run;
}

function readRecord(path: string): RunRecordEvent[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

function checkOutputs(origin: Origin, tasksPerSize: number): void {
  for (const size of ['small', 'large']) {
    for (let seed = 1; seed <= tasksPerSize; seed++) {
      const got = readFileSync(join(origin.dir, 'results', `${size}-${seed}.txt`), 'utf8');
      expect(got).toBe(expectedResult(origin, String(seed), `models/${size}.txt`));
    }
  }
}

describe('gridsweep run over loopback sshd', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'], c2: ['h21', 'h22'] });

  function prepare(tasksPerSize: number, seconds: string): { origin: Origin; gridPath: string; journal: string } {
    const origin = sshd.makeOrigin(sweepOf(tasksPerSize, seconds));
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, sshd.farm.realGridJson(origin.dir));
    return { origin, gridPath, journal: join(origin.dir, 'journal.jsonl') };
  }

  it('runs 60 tasks, survives a host whose sshd is killed, verifies every output, sends each input once per cluster', async () => {
    const { origin, gridPath, journal } = prepare(30, '0.1');
    const recordPath = join(origin.dir, 'run.jsonl');
    let killed = false;
    const args = ['run', origin.sweepPath, '--grid', gridPath, '--journal', journal, '--record', recordPath, '--sample-period', '5'];
    // Any scheduler option simulate takes, run takes too.
    const run = startCli([...args, '--host-candidates', 'with-room', '--keep-works', '2'], (line) => {
      if (!killed && /^done .*\(10\/60\)/.test(line)) {
        killed = true;
        sshd.farm.kill('h12');
        setTimeout(() => void sshd.farm.restart('h12'), 2000);
      }
    });
    const { code, stderr } = await run.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(killed).toBe(true);
    expect(run.lines.some((l) => /^down +h12/.test(l))).toBe(true);
    expect(run.lines.join('\n')).toMatch(/tasks: 60 done and verified, 0 skipped/);
    checkOutputs(origin, 30);

    const verified = readJournal(journal).filter((e) => e.type === 'verified').map((e) => e.work);
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(60).keys()]);
    const record = readRecord(recordPath);
    const workDone = record.filter((e) => e.type === 'work-done').map((e) => (e.type === 'work-done' ? e.work : -1));
    expect(workDone.sort((a, b) => a - b)).toEqual([...Array(60).keys()]);
    // 3 input files (the program and two models): each reached a cluster at most once (the scheduler
    // chooses which clusters need which), every one was sent, and both clusters were used.
    const sends = inputSendsInRecord(record);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    expect(new Set([...sends.keys()].map((k) => k.split('@')[0]))).toEqual(new Set(['0', '1', '2']));
    expect(new Set([...sends.keys()].map((k) => k.split('@')[1]))).toEqual(new Set(['c1', 'c2']));
    expect(record.some((e) => e.type === 'sched' && e.call === 'sched_host_failed' && e.hosts?.includes('h12'))).toBe(true);
    expect(record.at(-1)).toMatchObject({ type: 'run-end', worksDone: 60, worksFailed: 0 });
    expect(record[0]).toMatchObject({ type: 'header', options: { hostCandidates: 'with-room', keepWorksPerHost: 2, planIntervalS: 60 } });
  });

  it('resumes after the controller is killed with SIGKILL, without redoing verified tasks', async () => {
    const { origin, gridPath, journal } = prepare(12, '0.3');
    const first = startCli(['run', origin.sweepPath, '--grid', gridPath, '--journal', journal], (line, run) => {
      if (/^done .*\(8\/24\)/.test(line)) run.child.kill('SIGKILL');
    });
    const firstExit = await first.exited;
    expect(firstExit.signal).toBe('SIGKILL');
    const before = new Set(readJournal(journal).filter((e) => e.type === 'verified').map((e) => e.work));
    expect(before.size).toBeGreaterThanOrEqual(8);
    expect(before.size).toBeLessThan(24);

    const recordPath = join(origin.dir, 'resumed.jsonl');
    const second = startCli(['run', origin.sweepPath, '--grid', gridPath, '--journal', journal, '--resume', '--record', recordPath]);
    const { code, stderr } = await second.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(second.lines.join('\n')).toMatch(new RegExp(`tasks: ${24 - before.size} done and verified, ${before.size} skipped`));
    const computed = readRecord(recordPath).flatMap((e) => (e.type === 'start' && e.kind === 'compute' ? [e.work!] : []));
    for (const w of computed) expect(before.has(w)).toBe(false);
    const verifiedAll = readJournal(journal).filter((e) => e.type === 'verified').map((e) => e.work);
    expect(verifiedAll.sort((a, b) => a - b)).toEqual([...Array(24).keys()]);
    checkOutputs(origin, 12);
  });
});
