// A many-core SSH host: with the agent (the default transport) a host may have more slots than sshd allows
// channels per connection (MaxSessions, 10 by default here), since every task travels on the agent's one
// channel. 16 tasks on one 16-slot host all run at once; each writes when it started and ended, and the
// intervals must share an instant. The exec transport, a channel per task, refuses such a host in the file.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRealGrid } from '../../src/realgrid/real-grid-file.js';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { useSshdFarm } from './support/sshd-suite.js';

const TASKS = 16;
const TASK_S = 4;

function withSlots(gridJson: string, slots: number, extra: Record<string, unknown> = {}): string {
  const grid = JSON.parse(gridJson) as { clusters: { hosts: { slots?: number }[] }[] };
  for (const c of grid.clusters) for (const h of c.hosts) h.slots = slots;
  return JSON.stringify({ ...grid, ...extra }, null, 2);
}

describe('an SSH host with more slots than sshd allows channels', () => {
  const sshd = useSshdFarm({ big: ['many'] });

  it(`runs ${TASKS} tasks at once on one host through the agent`, async () => {
    const origin = sshd.makeOrigin({
      sweep: 1,
      command: ['sh', '-c', `date +%s.%N > "$1"; sleep ${TASK_S}; date +%s.%N >> "$1"`, 'task', '{out}'],
      parameters: { seed: { from: 1, to: TASKS } },
      outputs: { out: 'results/{seed}.txt' },
      estimates: { runTimeS: TASK_S, outputSizeBytes: 42 },
    });
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, withSlots(sshd.farm.realGridJson(origin.dir), TASKS));
    const r = await runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--journal', join(origin.dir, 'journal.jsonl'), '--no-watch']);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^start +${TASKS} task\\(s\\) to run, 0 already verified, ${TASKS} host\\(s\\) up$`, 'm'));
    const spans = Array.from({ length: TASKS }, (_, k) => readFileSync(join(origin.dir, 'results', `${k + 1}.txt`), 'utf8').trim().split('\n').map(Number));
    for (const s of spans) expect(s).toHaveLength(2);
    const lastStart = Math.max(...spans.map((s) => s[0]!));
    const firstEnd = Math.min(...spans.map((s) => s[1]!));
    expect(lastStart, `the last task started ${(lastStart - firstEnd).toFixed(1)} s after the first ended`).toBeLessThan(firstEnd);
    // Its slots were given: nothing to point out.
    expect(r.stdout).not.toMatch(/^note /m);
  }, 60_000);

  it('points out, once, the cores of a host given no "slots"', async () => {
    const origin = sshd.makeOrigin({ sweep: 1, command: ['true'], parameters: { seed: { from: 1, to: 3 } }, estimates: { runTimeS: 0.1, outputSizeBytes: 0 } });
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, sshd.farm.realGridJson(origin.dir));
    const r = await runGridsweep(['run', origin.sweepPath, '--grid', gridPath, '--journal', join(origin.dir, 'journal.jsonl'), '--no-watch', '--sample-period', '0.2']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The host is this machine, in a session of sshd's.
    const cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
    const notes = r.stdout.split('\n').filter((l) => l.startsWith('note '));
    expect(notes).toEqual(cores > 1 ? [`note    many has ${cores} cores and runs one task at a time: "slots": ${cores} in the real grid file would run ${cores} at once there`] : []);
  }, 60_000);

  it('refuses such a host with "transport": "exec", which holds a channel per task', () => {
    const text = withSlots(sshd.farm.realGridJson('/origin'), 7, { transport: 'exec' });
    const line = text.split('\n').findIndex((l) => l.includes('"slots"')) + 1;
    expect(() => parseRealGrid(text, 'g.json')).toThrow(
      new RegExp(`g\\.json:${line}:\\d+: error: host "many" has 7 slots, but with "transport": "exec" each running task holds one of the SSH channels .*\\n  fix: leave out "transport" \\(the agent runs every task on one channel\\), or give the host 6 slots at most`),
    );
    expect(parseRealGrid(withSlots(sshd.farm.realGridJson('/origin'), 6, { transport: 'exec' }), 'g.json').clusters[0]!.endpoints[0]!.hostIds).toHaveLength(6);
  });
});
