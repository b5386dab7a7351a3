// A temporary origin directory holding the example program (apps/examples/sweep-sim) and a sweep file.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../src/util/package-root.js';
import type { RunRecordEvent } from '../../../src/record/events.js';

export const EXAMPLE_DIR = join(PACKAGE_ROOT, 'apps', 'examples', 'sweep-sim');

export interface Origin {
  readonly dir: string;
  readonly sweepPath: string;
  remove(): void;
}

/** Copies the example program and models into a new directory and writes `sweep` there as sweep.json. */
export function makeOrigin(sweep: object): Origin {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-origin-'));
  cpSync(join(EXAMPLE_DIR, 'sim.sh'), join(dir, 'sim.sh'));
  cpSync(join(EXAMPLE_DIR, 'models'), join(dir, 'models'), { recursive: true });
  const sweepPath = join(dir, 'sweep.json');
  writeFileSync(sweepPath, JSON.stringify(sweep, null, 2));
  return { dir, sweepPath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What sim.sh writes for a seed and model, computed by running it here. */
export function expectedResult(origin: Origin, seed: string, model: string): string {
  const scratch = mkdtempSync(join(tmpdir(), 'gridsweep-expect-'));
  try {
    execFileSync('sh', [join(origin.dir, 'sim.sh'), '--seed', seed, '--model', model, '--out', join(scratch, 'out')], { cwd: origin.dir });
    return readFileSync(join(scratch, 'out'), 'utf8');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function sweepOf(tasksPerSize: number, seconds: string, extra: object = {}): object {
  return {
    sweep: 1,
    command: ['sh', 'sim.sh', '--seed', '{seed}', '--model', '{model}', '--out', '{out}', '--seconds', seconds],
    parameters: { size: ['small', 'large'], seed: { from: 1, to: tasksPerSize } },
    inputs: { program: 'sim.sh', model: 'models/{size}.txt' },
    outputs: { out: 'results/{size}-{seed}.txt' },
    estimates: { runTimeS: Number(seconds) + 0.1, outputSizeBytes: 120 },
    ...extra,
  };
}

/** Input transfers that completed, per `file@cluster`. */
export function inputSendsInRecord(events: readonly RunRecordEvent[]): Map<string, number> {
  const started = new Map<number, string>();
  const sends = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'start' && e.kind === 'input' && e.resource.type === 'link') started.set(e.id, `${e.file}@${e.resource.cluster}`);
    if (e.type === 'end' && e.ok && started.has(e.id)) {
      const key = started.get(e.id)!;
      sends.set(key, (sends.get(key) ?? 0) + 1);
    }
  }
  return sends;
}
