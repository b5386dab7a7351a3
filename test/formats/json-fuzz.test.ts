// Bad JSON input never throws anything but InputError: seeded structural mutations of the shipped sweep,
// real grid and experiment files (values swapped for ones of other types, out-of-range numbers, keys
// removed or added), each parsed and checked as the command that reads it does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBatchExperiment, loadBatchExperiment } from '../../src/experiment/batch/spec.js';
import { parseExperimentSpec } from '../../src/experiment/spec.js';
import { isTimeshareExperiment, loadTimeshareExperiment } from '../../src/experiment/timeshare/spec.js';
import { parseRealGrid } from '../../src/realgrid/real-grid-file.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { parseJsonSource } from '../../src/sweep/json-source.js';
import { expandSweep } from '../../src/sweep/expand.js';
import { parseSweep } from '../../src/sweep/sweep-file.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { Rng } from '../../src/util/rng.js';

type Kind = 'sweep' | 'realgrid' | 'experiment';

const SEEDS: readonly (readonly [Kind, string])[] = [
  ['sweep', 'apps/examples/sweep-sim/sweep.json'],
  ['realgrid', 'apps/examples/sweep-sim/grid-local.json'],
  ['realgrid', 'apps/examples/sweep-sim/grid-ssh.json'],
  ['experiment', 'experiments/fig11.json'],
  ['experiment', 'experiments/fig11-task-selection.json'],
  ['experiment', 'experiments/perturbation.json'],
  ['experiment', 'experiments/timeshare-comm.json'],
  ['experiment', 'experiments/timeshare-rigid.json'],
  ['experiment', 'griddescs/batch/dispatchers.json'],
];

const ODD_VALUES: readonly unknown[] = [
  null, true, false, 0, -1, -0.5, 1.5, 1e308, -1e308, 2 ** 53 + 2, 4294967296, '', ' ', '-1', '1e999', 'NaN', '{x}', '{task}', '${seed}',
  '../x', '/abs', 'a\u0000b', 'é', '~', '*', [], {}, [[]], { a: 1 }, [1, 2, 3], 'x'.repeat(10_000), 'exec', 'agent', 'local', 'slurm', 'easy',
];
const ODD_KEYS = ['extra', 'name', 'hosts', 'slots', 'port', 'arch', 'deadlines', 'transport', 'zip', 'seeds', 'storage', 'count', 'first'];

function mutate(value: unknown, rng: Rng): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng.next() * list.length)]!;
  if (Array.isArray(value)) {
    if (value.length > 0 && rng.next() < 0.7) {
      const i = Math.floor(rng.next() * value.length);
      value[i] = mutate(value[i], rng);
    } else if (rng.next() < 0.3) value.splice(Math.floor(rng.next() * (value.length + 1)), 0, pick(ODD_VALUES));
    else if (value.length > 0) value.splice(Math.floor(rng.next() * value.length), 1);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const r = rng.next();
    if (keys.length > 0 && r < 0.75) {
      const k = pick(keys);
      record[k] = mutate(record[k], rng);
    } else if (keys.length > 0 && r < 0.85) delete record[pick(keys)];
    else record[pick(ODD_KEYS)] = structuredClone(pick(ODD_VALUES));
    return record;
  }
  return rng.next() < 0.8 ? structuredClone(pick(ODD_VALUES)) : value;
}

function check(kind: Kind, text: string): void {
  const file = join(PACKAGE_ROOT, 'fuzzed.json');
  if (kind === 'sweep') expandSweep(parseSweep(text, file), { originDir: PACKAGE_ROOT, architectures: 2 });
  else if (kind === 'realgrid') parseRealGrid(text, file);
  else {
    const source = parseJsonSource(text, file);
    if (isBatchExperiment(source)) loadBatchExperiment(source);
    else if (isTimeshareExperiment(source)) loadTimeshareExperiment(source);
    else parseExperimentSpec(text, file, listHeuristics());
  }
}

describe('fuzzing the JSON input files', () => {
  it('3000 mutated sweep, real grid and experiment files: accepted or one InputError', () => {
    const rng = new Rng(1);
    const texts = SEEDS.map(([kind, path]) => [kind, readFileSync(join(PACKAGE_ROOT, path), 'utf8')] as const);
    const escaped: string[] = [];
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      const [kind, text] = texts[Math.floor(rng.next() * texts.length)]!;
      let value: unknown = JSON.parse(text);
      for (let k = 1 + Math.floor(rng.next() * 3); k > 0; k--) value = mutate(value, rng);
      const mutated = JSON.stringify(value, null, 1);
      try {
        check(kind, mutated);
      } catch (err) {
        if (err instanceof InputError) {
          rejected++;
          continue;
        }
        escaped.push(`${String(err)}\n${mutated.slice(0, 400)}`);
      }
    }
    expect(escaped.slice(0, 3)).toEqual([]);
    expect(rejected).toBeGreaterThan(2000); // the mutations do reach the checks
  });
});
