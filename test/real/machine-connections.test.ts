// MachineConnections on scripted machines (a unit: the same steps run against real sshds in
// test/netns/run-host-faults.test.ts and run-link-blink.test.ts): the start does not wait for a slow
// machine, which is offered when it answers; a machine that fails to connect is tried again with back-off
// until it answers; one that can never work is given up at once; one removed from the run is not tried
// again; stop() ends the retries.
import { describe, expect, it } from 'vitest';
import { PermanentEndpointError, type Endpoint, type LoadSample } from '../../backends/transport/endpoint.js';
import { MachineConnections, type MachineHooks } from '../../backends/real/machine-connections.js';
import type { ProgressEvent } from '../../backends/transport/progress-events.js';

/** A machine whose connection attempts answer as scripted: 'ok', 'fail', 'never' (hangs) or 'unusable'. */
function machine(name: string, script: ('ok' | 'fail' | 'never' | 'unusable')[]): Endpoint & { attempts: number[]; closed: boolean } {
  const startedMs = Date.now();
  let up = false;
  const e = {
    spec: { kind: 'local' as const, name, hostIds: [name], arch: 0 },
    clusterId: 'c',
    attempts: [] as number[],
    closed: false,
    connect(): Promise<void> {
      e.attempts.push(Date.now() - startedMs);
      const next = script.shift() ?? 'ok';
      if (next === 'never') return new Promise<void>(() => undefined);
      if (next === 'fail') return Promise.reject(new Error('connection refused'));
      if (next === 'unusable') return Promise.reject(new PermanentEndpointError('host key mismatch'));
      up = true;
      return Promise.resolve();
    },
    isUp: () => up,
    probe: (): Promise<LoadSample> => Promise.resolve({ load1: 0, cores: 1, rttMs: 1 }),
    close(): Promise<void> {
      e.closed = true;
      return Promise.resolve();
    },
  };
  return e as unknown as Endpoint & { attempts: number[]; closed: boolean };
}

type RecordingHooks = MachineHooks & { offered: string[]; events: ProgressEvent[]; probes: string[] };

/** Hooks that record what they are told: the machines offered, the progress events, the probes. */
function hooks(wanted: (e: Endpoint) => boolean = () => true): RecordingHooks {
  const offered: string[] = [];
  const events: ProgressEvent[] = [];
  const probes: string[] = [];
  return {
    answered: (e) => {
      offered.push(e.spec.name);
      return Promise.resolve();
    },
    wanted,
    probed: (e, _sample, first) => probes.push(`${e.spec.name}${first ? ' first' : ''}`),
    log: (event) => events.push(event),
    internalError: (err) => {
      throw err;
    },
    offered,
    events,
    probes,
  };
}

const options = { startGraceS: 0.2, samplePeriodS: 60, reconnectBaseS: 0.05, reconnectMaxS: 0.2 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MachineConnections', () => {
  it('starts once the grace after the first answer is over, without a machine that hangs; one that fails is retried with back-off until it answers', async () => {
    const fast = machine('fast', ['ok']);
    const hung = machine('hung', ['never']);
    const flaky = machine('flaky', ['fail', 'fail', 'fail', 'ok']);
    const h = hooks();
    const connections = new MachineConnections(options, h);
    const t0 = Date.now();
    await connections.connectAll(() => [[fast, hung], [flaky]]);
    const startedAfterMs = Date.now() - t0;
    expect(startedAfterMs).toBeGreaterThanOrEqual(190);
    expect(startedAfterMs).toBeLessThan(2000);
    // The machines up at the start are probed, the first of each cluster giving the link's latency.
    expect(h.probes).toEqual(['fast first']);
    await sleep(1000);
    connections.stop();
    // Three failures (waits of 0.05, 0.1 and 0.2 s), then an answer after the start: offered then.
    expect(flaky.attempts).toHaveLength(4);
    expect(flaky.attempts[1]! - flaky.attempts[0]!).toBeGreaterThanOrEqual(45);
    expect(flaky.attempts[2]! - flaky.attempts[1]!).toBeGreaterThanOrEqual(95);
    expect(flaky.attempts[3]! - flaky.attempts[2]!).toBeGreaterThanOrEqual(195);
    expect(h.offered).toEqual(['flaky']);
    // Said down once (the first failure), up once.
    expect(h.events.filter((e) => e.kind === 'down').map((e) => e.machine)).toEqual(['flaky']);
    expect(h.events.filter((e) => e.kind === 'up').map((e) => e.machine)).toEqual(['flaky']);
    expect(hung.attempts).toHaveLength(1);
  });

  it('gives up at once on a machine that can never work, and does not reconnect one removed from the run', async () => {
    const bad = machine('bad', ['unusable']);
    const removed = machine('removed', ['ok']);
    let removedWanted = true;
    const h = hooks((e) => e !== removed || removedWanted);
    const connections = new MachineConnections(options, h);
    await connections.connectAll(() => [[bad, removed]]);
    expect(h.events).toEqual([{ kind: 'unusable', machine: 'bad', reason: 'host key mismatch' }]);
    removedWanted = false;
    connections.reconnect(removed);
    connections.reconnect(bad);
    await sleep(300);
    connections.stop();
    expect(bad.attempts).toHaveLength(1);
    expect(removed.attempts).toHaveLength(1);
  });

  it('a machine that answers once it is no longer wanted is closed, not offered; stop() ends the retries', async () => {
    const leaving = machine('leaving', ['fail', 'ok']);
    const retrying = machine('retrying', ['fail', 'fail', 'fail', 'fail', 'fail', 'fail']);
    let wanted = true;
    const h = hooks((e) => e !== leaving || wanted);
    const connections = new MachineConnections(options, h);
    await connections.connectAll(() => []);
    connections.connectLate(leaving);
    connections.connectLate(retrying);
    await sleep(20);
    wanted = false;
    await sleep(400);
    expect(leaving.attempts).toHaveLength(2);
    expect(leaving.closed).toBe(true);
    expect(h.offered).toEqual([]);
    connections.stop();
    const attempts = retrying.attempts.length;
    await sleep(400);
    expect(retrying.attempts).toHaveLength(attempts);
  });
});
