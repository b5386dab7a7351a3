// The local backend: a small sweep with the real Scheduler on process slots of this machine (outputs
// verified, shared inputs stored once), argv values reaching the program literally (no shell) through
// the local agent, the agent's death reported as the slots going down, and cancel killing the task's
// whole process group.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { LocalEndpoint } from '../../backends/local/local-endpoint.js';
import { EndpointDownError } from '../../backends/transport/endpoint.js';
import { runReal } from '../../backends/real/runner.js';
import type { LocalEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { expectedResult, inputSendsInRecord, makeOrigin, sweepOf, type Origin } from './support/origin.js';
import { processExists } from './support/process-exists.js';
import { freshRunInput } from './support/run-input.js';

const origins: Origin[] = [];
afterAll(() => origins.forEach((o) => o.remove()));

describe('local backend', () => {
  it('runs a sweep with the real Scheduler: every output verified, each shared input stored once', async () => {
    const origin = makeOrigin(sweepOf(5, '0.05'));
    origins.push(origin);
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: 'storage', hosts: { type: 'local', slots: 3 } }] }));
    const events: RunRecordEvent[] = [];
    const result = await runReal(
      {
        ...freshRunInput(origin, gridPath, join(origin.dir, 'journal.jsonl')),
        scheduler: DEFAULT_SCHEDULER_OPTIONS,
        record: (e) => events.push(e),
        log: () => undefined,
      },
      (app, deps) => new Scheduler(app, DEFAULT_SCHEDULER_OPTIONS, deps),
    );
    expect(result.worksDone).toBe(10);
    for (const size of ['small', 'large']) {
      for (let seed = 1; seed <= 5; seed++) {
        expect(readFileSync(join(origin.dir, 'results', `${size}-${seed}.txt`), 'utf8')).toBe(expectedResult(origin, String(seed), `models/${size}.txt`));
      }
    }
    const sends = inputSendsInRecord(events);
    expect([...sends.entries()].sort()).toEqual([['0@here', 1], ['1@here', 1], ['2@here', 1]]);
    const hosts = new Set(events.flatMap((e) => (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' ? [e.resource.host] : [])));
    expect(hosts).toEqual(new Set(['here.1', 'here.2', 'here.3']));
    expect(events.filter((e) => e.type === 'work-done')).toHaveLength(10);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'gridsweep-local-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const spec: LocalEndpointSpec = { kind: 'local', name: 'here', hostIds: ['here.1'], arch: 0 };

  it('passes argv values literally, with no shell in between', async () => {
    const e = new LocalEndpoint(spec, 'here', scratch, 'argv');
    await e.connect();
    const args = ['$(echo no)', 'a;b', "it's", '*', 'x\ny'];
    const exit = await e.run({ workKey: 'w', argv: ['node', '-e', 'require("fs").writeFileSync("out.json", JSON.stringify(process.argv.slice(1)))', ...args], inputs: [], outputs: ['out.json'] });
    expect(exit.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(scratch, 'gridsweep', 'argv', 'work', 'w', 'out.json'), 'utf8'))).toEqual(args);
    const missing = await e.run({ workKey: 'm', argv: ['no-such-program-gridsweep'], inputs: [], outputs: [] });
    expect(missing.exitCode).toBe(127);
  });

  it('a local agent that dies takes its slots down (its running task fails with the loss); connecting again starts a new one', async () => {
    const e = new LocalEndpoint(spec, 'here', scratch, 'agent-dies');
    const downs: string[] = [];
    e.onDown((reason) => downs.push(reason));
    await e.connect();
    const agents = execFileSync('pgrep', ['-P', String(process.pid), '-x', 'perl'], { encoding: 'utf8' }).trim().split('\n').map(Number);
    expect(agents.length).toBeGreaterThan(0);
    const running = e.run({ workKey: 'long', argv: ['sleep', '30'], inputs: [], outputs: [] });
    for (const pid of agents) process.kill(pid, 'SIGKILL');
    await expect(running).rejects.toBeInstanceOf(EndpointDownError);
    expect(downs).toEqual(['the local agent ended']);
    expect(e.isUp()).toBe(false);
    await e.connect();
    expect(e.isUp()).toBe(true);
    expect((await e.run({ workKey: 'after', argv: ['true'], inputs: [], outputs: [] })).exitCode).toBe(0);
    await e.close();
  });

  it('cancel kills the task and the processes it started', async () => {
    const e = new LocalEndpoint(spec, 'here', scratch, 'cancel');
    await e.connect();
    const running = e.run({ workKey: 'k', argv: ['sh', '-c', 'sleep 60 & echo $! > child.pid; wait'], inputs: [], outputs: [] });
    const pidFile = join(scratch, 'gridsweep', 'cancel', 'work', 'k', 'child.pid');
    let childPid = 0;
    for (let i = 0; i < 100 && !childPid; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        childPid = Number(readFileSync(pidFile, 'utf8'));
      } catch {
        // not written yet
      }
    }
    expect(processExists(childPid)).toBe(true);
    await e.kill('k');
    const exit = await running;
    expect(exit.signal).toBe('TERM');
    expect(processExists(childPid)).toBe(false);
  });
});
