// The one quoting function, checked against real shells: locally (sh and bash) and through a real sshd
// (the remote login shell), with arguments full of shell syntax that must arrive literally.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellCommand, shellQuote } from '../../backends/transport/shell-quote.js';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';
import { processExists } from './support/process-exists.js';
import { NASTY } from '../support/shell-words.js';

function roundTrip(shell: string, args: readonly string[]): string[] {
  const out = execFileSync(shell, ['-c', `printf '%s\\0' ${shellCommand(args)}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes everything else', () => {
    expect(shellQuote('abc-1.txt')).toBe('abc-1.txt');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });

  for (const shell of ['sh', 'bash']) {
    it(`passes every argument literally through ${shell}`, () => {
      expect(roundTrip(shell, NASTY)).toEqual(NASTY);
    });
  }
});

describe.each(['exec', 'agent'] as const)('shellQuote over a real sshd (transport %s)', (transport) => {
  let farm: SshdFarm;
  let endpoint: SshEndpoint;

  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h1'] });
    const grid = parseRealGrid(farm.realGridJson(farm.dir), 'grid.json');
    const spec = { ...(grid.clusters[0]!.endpoints[0] as SshEndpointSpec), transport };
    endpoint = new SshEndpoint(spec, 'c1', farm.clusters[0]!.storage, `quoting-${transport}`, { acceptNew: false });
    await endpoint.connect();
  });

  afterAll(async () => {
    await endpoint?.close();
    await farm?.stop();
  });

  it('delivers every argument unchanged to the remote program', async () => {
    const r = await endpoint.runArgv(['printf', '%s\\0', ...NASTY]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(NASTY);
  });

  it('runs a task argv literally in its working directory', async () => {
    const args = ['$(echo injected)', 'semi;colon', 'new\nline', "quote'd", '*'];
    const exit = await endpoint.run({ workKey: 'q1', argv: ['sh', '-c', 'printf "%s\\0" "$@" > out.bin', 'sh', ...args], inputs: [], outputs: ['out.bin'] });
    expect(exit.exitCode).toBe(0);
    const facts = await endpoint.outputFacts('q1', ['out.bin', 'missing.bin']);
    const expected = Buffer.from(args.map((a) => `${a}\0`).join(''));
    expect(facts[0]).toEqual({ sizeBytes: expected.length, sha256: createHash('sha256').update(expected).digest('hex') });
    expect(facts[1]).toBeUndefined();
  });

  it('cancel kills the remote task and every process it started (setsid + kill -PGID)', async () => {
    const running = endpoint.run({ workKey: 'k1', argv: ['sh', '-c', 'sleep 60 & echo $! > child.pid; wait'], inputs: [], outputs: [] });
    const wd = join(farm.clusters[0]!.storage, 'gridsweep', `quoting-${transport}`, 'work', 'k1');
    let childPid = 0;
    for (let i = 0; i < 100 && !childPid; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (existsSync(join(wd, 'child.pid'))) childPid = Number(readFileSync(join(wd, 'child.pid'), 'utf8'));
    }
    const pgid = Number(readFileSync(join(wd, '.gridsweep.pid'), 'utf8'));
    expect(processExists(childPid) && processExists(pgid)).toBe(true);
    await endpoint.kill('k1');
    const exit = await running;
    expect(exit.exitCode).not.toBe(0);
    expect(processExists(childPid)).toBe(false);
    expect(processExists(pgid)).toBe(false);
  });
});
