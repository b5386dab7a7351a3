// The failure paths of a real run, driven through RealGridOS over fake machines: a task that fails or
// leaves an output out, a cluster's storage that refuses an input (upload failure) or gives an output back
// corrupted, a connection lost mid-transfer, a transfer past its deadline, the origin refusing a write;
// and the happy path they depart from (stored, computed, retrieved, verified), plus the collection of an
// attempt that finished while no controller ran.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OriginWriteError } from '../../../backends/real/origin-failure.js';
import { makeHarness, until, type Harness } from './support/grid-harness.js';
import type { FakeEndpoint } from './support/fake-endpoint.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function machine(name: string): FakeEndpoint {
  return h!.machines.get(name)!;
}

async function computing(work: number, host: string, m: string, attempt = 1): Promise<void> {
  h!.grid.compute(work, host);
  await until(() => machine(m).running(`w${work}.a${attempt}`), `w${work}.a${attempt} running on ${m}`);
}

describe('failure paths', { timeout: 5000 }, () => {
  it('the happy path: stored, computed, retrieved and verified; the run is finished', async () => {
    h = makeHarness({ tasks: 1 });
    await h.start();
    h.grid.store(0, 'c1');
    await until(() => h!.scheduler.calls.includes('stored 0 c1'), 'input stored');
    expect([...h.grid.storedFiles('c1')]).toEqual([0]);
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.scheduler.calls.includes('work_done 0 h1'), 'Work 0 done');
    h.grid.retrieve(0, 'h1');
    await h.grid.finishedPromise;
    expect(readFileSync(join(h.originDir, 'out/0.txt'), 'utf8')).toBe('w0.a1 out/0.txt\n');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'stored 0 c1', 'work_done 0 h1', 'retrieved 0 c1']);
    expect(h.journal.lines()).toEqual(['started 0', 'done 0', 'verified 0']);
    expect([...h.grid.worksDone()]).toEqual([0]);
    expect(h.grid.inputSends.get('0@c1')).toBe(1);
  });

  it('task failure: a non-zero exit fails the Work (not the host), journaled and kept for the report', async () => {
    h = makeHarness();
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 2, {}, 'boom\n');
    await until(() => h!.scheduler.calls.length === 2, 'Work 0 failed');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'work_failed 0 h1 exit']);
    expect(h.journal.entries.at(-1)).toMatchObject({ type: 'failed', work: 0, reason: 'exit: exit code 2', final: false });
    expect(h.grid.stderrTailOf(0)).toBe('boom\n');
    expect([...h.grid.hostsToAvoid(0)]).toEqual([]); // h1 is the only host: not avoided
    // The scheduler gives it up: the grid stops waiting for it.
    h.grid.workGivenUp(0, 'h1', 'exit');
    expect(h.grid.worksFailedForGood().get(0)).toBe('given up after repeated failures');
    expect(h.grid.worksLeft()).toBe(1);
  });

  it('task failure: exit 0 without an output is a failed attempt', async () => {
    h = makeHarness();
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 0, {});
    await until(() => h!.scheduler.calls.length === 2, 'Work 0 failed');
    expect(h.scheduler.calls[1]).toBe('work_failed 0 h1 exit');
    expect(h.grid.stderrTailOf(0)).toMatch(/did not write out\/0.txt/);
  });

  it('upload failure: a storage that refuses an input fails the cluster, which is offered again later', async () => {
    h = makeHarness({ reconnectS: 0.02 });
    await h.start();
    h.storages.get('c1')!.refuseFiles = 'No space left on device';
    h.grid.store(0, 'c1');
    await until(() => h!.scheduler.calls.includes('disk_failed c1'), 'cluster failed');
    expect(h.log.find((e) => e.kind === 'down')).toMatchObject({ machine: 'c1', reason: expect.stringMatching(/input 0 could not be stored: No space left/) });
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'REMOVE_HOST h1', 'REMOVE_CLUSTER c1']);
    await until(() => h!.scheduler.calls.length === 3, 'cluster offered again');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'disk_failed c1', 'new_host h1']);
    expect(h.record.filter((r) => r.type === 'end')).toEqual([expect.objectContaining({ ok: false })]);
  });

  it('retrieval failure: outputs that never arrive intact fail the cluster; the Works computed there are lost with it', async () => {
    h = makeHarness({ reconnectS: 10 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.scheduler.calls.includes('work_done 0 h1'), 'Work 0 done');
    h.storages.get('c1')!.corruptFetch = Buffer.from('garbage');
    h.grid.retrieve(0, 'h1');
    await until(() => h!.scheduler.calls.includes('disk_failed c1'), 'cluster failed');
    expect(h.log.find((e) => e.kind === 'down')).toMatchObject({ reason: expect.stringMatching(/outputs of Work 0 could not be retrieved: verification failed 3 times/) });
    expect(existsSync(join(h.originDir, 'out/0.txt'))).toBe(false);
    expect(h.grid.worksDone().size).toBe(0);
  });

  it('lost connection mid-task: the Work is failed by the host failure, not run as a task failure', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 10 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('broken pipe');
    await until(() => h!.journal.entries.length === 2, 'journaled');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1']);
    expect(h.journal.entries[1]).toMatchObject({ type: 'failed', reason: 'host failed: broken pipe', final: false });
  });

  it('deadline: a transfer that hangs is abandoned at its deadline and done through another machine of the cluster', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, commandS: 0.03, reconnectS: 10 });
    await h.start();
    machine('m1').stallTransfers = true;
    h.grid.store(0, 'c1');
    await until(() => h!.scheduler.calls.includes('stored 0 c1'), 'input stored');
    // m1 missed its deadline and was dropped (its host failed); m2 stored the file.
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'stored 0 c1']);
    expect(machine('m2').calls).toContain('put f0');
    expect(h.storages.get('c1')!.files.has('f0')).toBe(true);
  });

  it('deadline on the last machine: the cluster goes down, the transfer ends unfinished', async () => {
    h = makeHarness({ commandS: 0.03, reconnectS: 10 });
    await h.start();
    machine('m1').stallTransfers = true;
    h.grid.store(0, 'c1');
    await until(() => h!.scheduler.calls.includes('disk_failed c1'), 'cluster down');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'disk_failed c1']);
    expect(h.record.filter((r) => r.type === 'end')).toEqual([expect.objectContaining({ ok: false })]);
  });

  it('origin failure: a journal the origin refuses stops the run; no host or cluster is blamed, nothing new starts', async () => {
    h = makeHarness();
    await h.start();
    const full = new OriginWriteError('the journal', '/origin/journal', 'ENOSPC', 'No space left on device');
    h.journal.refuse = full;
    h.grid.compute(0, 'h1');
    await expect(h.grid.finishedPromise).rejects.toBe(full);
    expect(machine('m1').calls).toEqual([]); // the task was not started: its start is not journaled
    h.grid.compute(1, 'h1');
    expect(h.scheduler.calls).toEqual(['new_host h1']);
  });

  it('origin failure: an output the origin has no room for stops the run; the cluster is not blamed, the Work stays computed there', async () => {
    h = makeHarness();
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.scheduler.calls.includes('work_done 0 h1'), 'Work 0 done');
    h.storages.get('c1')!.originRefuses = 'ENOSPC';
    h.grid.retrieve(0, 'h1');
    const err = await h.grid.finishedPromise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OriginWriteError);
    expect((err as OriginWriteError).code).toBe('ENOSPC');
    expect((err as OriginWriteError).what).toBe('an output');
    // No disk failure, no host failure; the outputs wait in the cluster's storage for the next run.
    expect(h.scheduler.calls).toEqual(['new_host h1', 'work_done 0 h1']);
    expect(h.storages.get('c1')!.work.has('w0.a1')).toBe(true);
    expect(h.journal.lines()).toEqual(['started 0', 'done 0']);
    h.grid.retrieve(1, 'h1'); // the run is stopping: nothing new is retrieved (nor is it a bug)
  });

  it('collection on resume: an attempt of the killed run that exited 0 is adopted and verified, not run again', async () => {
    h = makeHarness();
    const storage = h.storages.get('c1')!;
    const files = new Map([['out/1.txt', Buffer.from('from the earlier run\n')]]);
    storage.earlier.set('run-old/w1.a2', { task: { workKey: 'w1.a2', argv: [], inputs: [], outputs: ['out/1.txt'] }, machine: 'm1', state: 'exited', exitCode: 0, files });
    storage.earlier.set('run-old/w0.a1', { task: { workKey: 'w0.a1', argv: [], inputs: [], outputs: ['out/0.txt'] }, machine: 'm1', state: 'running', files: new Map() });
    await h.grid.connectAll();
    const collected = await h.grid.collectFinished([
      { work: 1, host: 'h1', attempt: 2, runId: 'run-old' },
      { work: 0, host: 'h1', attempt: 1, runId: 'run-old' },
    ]);
    expect(collected).toEqual([1]);
    expect(readFileSync(join(h.originDir, 'out/1.txt'), 'utf8')).toBe('from the earlier run\n');
    expect(h.journal.lines()).toEqual(['done 1', 'verified 1']);
    expect(h.log.some((e) => e.kind === 'collected' && e.work === 1)).toBe(true);
    expect(h.grid.worksLeft()).toBe(1);
  });
});
