// `gridsweep check-heuristic FILE`: runs a heuristic plug-in on seeded random instances under the
// run-record checker and prints what it violates (src/cli/check-heuristic-instance.ts).
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Command } from '../command.js';
import { numberOption } from '../args.js';
import type { InstanceVerdict } from '../check-heuristic-instance.js';
import { loadPlugin } from '../../scheduler/heuristics/plugin.js';
import { MAX_SEED } from '../../util/rng.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const DEFAULT_INSTANCES = 20;
const DEFAULT_LIMIT_S = 60;

interface Outcome {
  readonly verdicts: InstanceVerdict[];
  /** Set when the worker stopped early: the instance it was on and why. */
  readonly stopped?: string;
}

function runChecks(plugin: string, seed: number, instances: number, limitS: number, onVerdict: (v: InstanceVerdict) => void): Promise<Outcome> {
  return new Promise((done) => {
    const verdicts: InstanceVerdict[] = [];
    const worker = new Worker(new URL('../check-heuristic-worker.js', import.meta.url), { workerData: { plugin, seed, instances } });
    let current = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (stopped?: string): void => {
      clearTimeout(timer);
      void worker.terminate();
      done(stopped === undefined ? { verdicts } : { verdicts, stopped });
    };
    worker.on('message', (m: { started?: number; verdict?: InstanceVerdict }) => {
      if (m.started !== undefined) {
        current = m.started;
        clearTimeout(timer);
        timer = setTimeout(() => finish(`instance ${current} did not end within ${limitS} s: stopped (an endless loop in plan()?)`), limitS * 1000);
      }
      if (m.verdict !== undefined) {
        verdicts.push(m.verdict);
        onVerdict(m.verdict);
        if (verdicts.length === instances) finish();
      }
    });
    worker.on('error', (err) => finish(`the check stopped at instance ${current}: ${err.message}`));
    worker.on('exit', () => finish(verdicts.length === instances ? undefined : `the check stopped at instance ${current}`));
  });
}

const command: Command = {
  name: 'check-heuristic',
  summary: COMMAND_SUMMARIES['check-heuristic'],
  usage: 'gridsweep check-heuristic FILE.js [--instances N] [--seed S] [--time-limit S]',
  details: [
    'FILE.js is an ES module whose default export is a heuristic (docs/plugins.md). Each instance is a',
    'seeded random grid (1–3 clusters, half of them with hosts failing and joining) and MCell-style sweep,',
    'simulated with the plug-in under the checker the built-in heuristics pass: FIFO resources, inputs',
    'before computations, outputs after, every Work done exactly once, the run finished. The plug-in runs',
    'in a worker thread, stopped if one instance takes longer than the time limit. Exit 0 when no instance',
    'violates anything, 1 otherwise.',
  ].join('\n'),
  options: {
    instances: { type: 'string', description: `how many instances (default ${DEFAULT_INSTANCES})`, valueName: 'N' },
    seed: { type: 'string', description: 'seed of the instances (default 1)', valueName: 'S' },
    'time-limit': { type: 'string', description: `seconds one instance may take (default ${DEFAULT_LIMIT_S})`, valueName: 'S' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const instances = numberOption(args, 'instances', DEFAULT_INSTANCES, { min: 1, max: 10_000, integer: true });
    const seed = numberOption(args, 'seed', 1, { min: 0, max: MAX_SEED, integer: true });
    const limitS = numberOption(args, 'time-limit', DEFAULT_LIMIT_S, { min: 0.1 });
    const plugin = await loadPlugin(resolve(args.positionals[0]!));
    console.log(`checking ${plugin} on ${instances} instance(s), seed ${seed}`);
    const outcome = await runChecks(plugin, seed, instances, limitS, (v) => {
      const status = v.violations.length === 0 ? 'ok' : `${v.violations.length} violation(s)`;
      console.log(`  instance ${v.instance}${v.shape === '' ? '' : ` (${v.shape})`}: ${status}`);
      for (const line of v.violations.slice(0, 5)) console.log(`    - ${line}`);
      if (v.violations.length > 5) console.log(`    - … and ${v.violations.length - 5} more`);
    });
    const bad = outcome.verdicts.filter((v) => v.violations.length > 0).length;
    if (outcome.stopped !== undefined) console.log(outcome.stopped);
    if (bad === 0 && outcome.stopped === undefined) {
      console.log(`no violation on ${instances} instance(s)`);
      return 0;
    }
    console.log(`${bad} of ${outcome.verdicts.length} checked instance(s) violate the rules${outcome.stopped === undefined ? '' : '; the check did not finish'}`);
    return 1;
  },
};

export default command;
