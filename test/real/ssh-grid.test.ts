// The SSH backend through the GridOS port, against real sshd servers on loopback (2 clusters x 2 hosts):
// store once per cluster, compute in per-task working directories, retrieve and verify outputs; task
// failures with exit codes and stderr; cancel killing the remote process group; a host dying mid-run.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { runReal } from '../../backends/real/runner.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { GreedyDriver } from './support/greedy-driver.js';
import { expectedResult, inputSendsInRecord, sweepOf } from './support/origin.js';
import { freshRunInput } from './support/run-input.js';
import { useSshdFarm } from './support/sshd-suite.js';

describe('SSH backend against real sshd', () => {
  const sshd = useSshdFarm({ c1: ['h11', 'h12'], c2: ['h21', 'h22'] });

  async function run(sweep: object, opts: { onDone?: (done: number) => void } = {}) {
    const origin = sshd.makeOrigin(sweep);
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, sshd.farm.realGridJson(origin.dir));
    const events: RunRecordEvent[] = [];
    let driver: GreedyDriver | undefined;
    const journalPath = join(origin.dir, 'journal.jsonl');
    const result = await runReal(
      {
        ...freshRunInput(origin, gridPath, journalPath),
        scheduler: DEFAULT_SCHEDULER_OPTIONS,
        record: (e) => events.push(e),
        log: (e) => {
          if (e.kind === 'done') opts.onDone?.(e.done);
        },
        samplePeriodS: 5,
        reconnectBaseS: 0.5,
        reconnectMaxS: 2,
        retry: { maxAttempts: 3, hostFailuresToSetAside: 100, setAsideBaseS: 1, setAsideMaxS: 2 },
      },
      (_app, deps) => (driver = new GreedyDriver(deps.gridOS, deps.info, deps.record)),
    );
    return { origin, events, result, driver: driver!, journal: readJournal(journalPath) };
  }

  it('runs a sweep: every output verified at the origin, each shared input stored once per cluster', async () => {
    const { origin, events, result, journal } = await run(sweepOf(6, '0.1'));
    expect(result.worksDone).toBe(12);
    expect(result.worksFailed).toEqual([]);
    for (const size of ['small', 'large']) {
      for (let seed = 1; seed <= 6; seed++) {
        const got = readFileSync(join(origin.dir, 'results', `${size}-${seed}.txt`), 'utf8');
        expect(got).toBe(expectedResult(origin, String(seed), `models/${size}.txt`));
      }
    }
    const sends = inputSendsInRecord(events);
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    expect(new Set([...sends.keys()].map((k) => k.split('@')[1]))).toEqual(new Set(['c1', 'c2']));
    expect(sends).toEqual(result.inputSends);
    const verified = journal.filter((e) => e.type === 'verified').map((e) => e.work);
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    // Hosts of both clusters computed.
    const computeHosts = new Set(events.flatMap((e) => (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' ? [e.resource.host] : [])));
    expect(computeHosts.size).toBeGreaterThanOrEqual(3);
    // A clean run leaves nothing behind in the clusters' storage.
    for (const c of sshd.farm.clusters) expect(readdirSync(join(c.storage, 'gridsweep'))).toEqual([]);
  });

  it('reports a failing task with its exit code and stderr, retries it on other hosts, then gives up', async () => {
    const sweep = {
      sweep: 1,
      command: ['sh', '-c', 'if [ "$0" = bad ]; then echo "broken input $0" >&2; exit 7; fi; echo ok > "$1"', '{kind}', '{out}'],
      parameters: { kind: ['good', 'bad', 'good2'] },
      outputs: { out: 'out-{kind}.txt' },
      estimates: { runTimeS: 1, outputSizeBytes: 3 },
    };
    const { result, driver, events, journal } = await run(sweep);
    expect(result.worksDone).toBe(2);
    expect(result.worksFailed).toEqual([1]);
    const exits = driver.failures.filter((f) => f.failure.reason === 'exit' && f.failure.exitCode === 7);
    expect(exits).toHaveLength(3);
    for (const f of exits) {
      expect(f.works).toEqual([1]);
      if (f.failure.reason === 'exit') expect(f.failure.stderrTail).toContain('broken input bad');
    }
    expect(new Set(exits.map((f) => f.failure.hostId)).size).toBe(3);
    const finals = events.filter((e) => e.type === 'work-failed' && e.final);
    expect(finals).toHaveLength(1);
    expect(journal.filter((e) => e.type === 'failed' && e.final)).toHaveLength(1);
  });

  it('finishes every task exactly once when a host dies mid-run', async () => {
    let killed = false;
    const { origin, result, journal, driver } = await run(sweepOf(8, '0.4'), {
      onDone: (done) => {
        if (!killed && done === 3) {
          killed = true;
          sshd.farm.kill('h12');
          setTimeout(() => void sshd.farm.restart('h12'), 1500);
        }
      },
    });
    expect(killed).toBe(true);
    expect(result.worksDone).toBe(16);
    const verified = journal.filter((e) => e.type === 'verified').map((e) => e.work);
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(16).keys()]);
    expect(driver.calls.some((c) => c.startsWith('host_failed') && c.includes('h12'))).toBe(true);
    expect(driver.calls.filter((c) => c.includes('new_host') && c.includes('h12')).length).toBeGreaterThanOrEqual(1);
    for (let seed = 1; seed <= 8; seed++) {
      expect(readFileSync(join(origin.dir, 'results', `large-${seed}.txt`), 'utf8')).toBe(expectedResult(origin, String(seed), 'models/large.txt'));
    }
  });
});
