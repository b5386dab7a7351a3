// `gridsweep experiment SPEC [--out DIR] [--jobs N]`: run a matrix of simulations, cached and resumable.
import { basename, join } from 'node:path';
import type { Command } from '../command.js';
import { numberOption, stringOption } from '../args.js';
import { loadExperimentSpec } from '../../experiment/spec.js';
import { matrixSize, runExperiment } from '../../experiment/run-experiment.js';
import { defaultWorkerCount } from '../../experiment/pool.js';
import { listHeuristics } from '../../scheduler/heuristics/registry.js';

const SPEC_HELP = [
  'The specification is JSON:',
  '  {',
  '    "name": "fig11",',
  '    "heuristics": "all",                      (or a list of names or codes, e.g. ["H0", "H4"])',
  '    "strategies": { "default": {}, "steal": { "workStealing": true } },   (optional)',
  '    "grids": { "fig11": { "file": "../griddescs/fig11/fig11.grid" } },',
  '    "applications": { "mcell": { "file": "../apps/fig11/fig11-${sharedFileSizeKB}kb.app" } },',
  '    "sweep": { "variable": "sharedFileSizeKB", "values": [100, 200, 400] },   (optional)',
  '    "seeds": { "count": 5 }                   (or a list, e.g. [1, 2, 3])',
  '  }',
  'A grid or an application is {"file": PATH} (relative to the specification) or a generator:',
  '{"generator": "fig11", "sharedFileSizeKB": N}, {"generator": "fig11-grid"}, or {"generator":',
  '"mcell" | "ins2d" | "grid", "spec": {...}, "seed": N} (see src/generators). ${VARIABLE} and ${seed}',
  'are replaced in every string of these entries. Every run is cached in DIR/runs under a hash of its',
  'inputs\' contents, options, seed and the gridsweep version: run the same command again to resume.',
  'DIR/results.csv and DIR/results.json hold one row per run; `gridsweep plot` draws them.',
].join('\n');

const command: Command = {
  name: 'experiment',
  summary: 'run a matrix of simulations (heuristics × strategies × grids × applications × seeds), cached',
  usage: 'gridsweep experiment SPEC.json [--out DIR] [--jobs N]',
  details: SPEC_HELP,
  options: {
    out: { type: 'string', short: 'o', description: 'results folder (default results/<spec name>)', valueName: 'DIR' },
    jobs: { type: 'string', short: 'j', description: `worker threads (default ${defaultWorkerCount()}, the available CPUs)`, valueName: 'N' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress line' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const specPath = args.positionals[0]!;
    const jobs = numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true });
    const loaded = loadExperimentSpec(specPath, listHeuristics());
    const outDir = stringOption(args, 'out') ?? join('results', basename(specPath).replace(/\.json$/i, ''));
    const showProgress = args.values['quiet'] !== true && process.stderr.isTTY === true;
    console.error(`${specPath}: ${matrixSize(loaded)} runs on ${jobs} worker thread(s) → ${outDir}`);
    const summary = await runExperiment(loaded, {
      outDir,
      jobs,
      ...(showProgress
        ? {
            onProgress: (p) => {
              process.stderr.write(`\r${p.done}/${p.total} runs (${p.cached} cached${p.failed ? `, ${p.failed} failed` : ''})   `);
            },
          }
        : {}),
    });
    if (showProgress) process.stderr.write('\n');
    console.log(summary.table.format());
    console.log('');
    console.log(`${summary.total} runs: ${summary.simulated} simulated, ${summary.cached} from the cache, ${summary.failures.length} failed, in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
    console.log(`wrote ${summary.csvPath} and ${summary.jsonPath}`);
    for (const f of summary.failures.slice(0, 10)) console.error(`failed: ${f.run}: ${f.message}`);
    if (summary.failures.length > 10) console.error(`... and ${summary.failures.length - 10} more failures`);
    return summary.failures.length === 0 ? 0 : 1;
  },
};

export default command;
