// `gridsweep generate KIND [SPEC.json] -o OUT [--seed N]`: write generated applications and grids.
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { numberOption, stringOption } from '../args.js';
import { saveApplication, writeGrid } from '../../formats/index.js';
import { generateIns2dApplication, generateMcellApplication, type Ins2dSpec, type McellSpec } from '../../generators/application.js';
import { generateGrid, type GridSpec } from '../../generators/grid.js';
import { writeFig11Files } from '../../generators/fig11-files.js';
import { writeGeneratedWorkload } from '../../batch/swf/write-generated.js';
import type { WorkloadSpec } from '../../batch/workload-generator.js';
import { InputError } from '../../util/diagnostics.js';
import { Rng } from '../../util/rng.js';

const KINDS = ['fig11', 'mcell', 'ins2d', 'grid', 'swf'] as const;

function readSpec(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: `cannot read the generator specification: ${(err as Error).message}` }]);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError([{ severity: 'error', pos: { file: path, line: 1, column: 1 }, message: `invalid JSON: ${(err as Error).message}`, hint: 'fix the JSON syntax' }]);
  }
}

/** Generator parameter errors are plain Errors; report them against the specification file. */
function generated<T>(specPath: string, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError([{ severity: 'error', pos: { file: specPath, line: 1, column: 1 }, message: (err as Error).message, hint: 'correct this generator parameter' }]);
  }
}

const command: Command = {
  name: 'generate',
  summary: 'generate applications (MCell-style, INS2D-style), grids, batch workloads (SWF), or the Figure 11 files',
  usage: 'gridsweep generate fig11 [--root DIR] | gridsweep generate mcell|ins2d|grid|swf SPEC.json -o OUT [--seed N]',
  details: [
    'fig11: writes griddescs/fig11/fig11.grid (+ behaviour files) and apps/fig11/fig11-<size>kb.app under',
    '       DIR (default: the current folder), exactly as shipped.',
    'mcell: SPEC.json holds an McellSpec (src/generators/application.ts): chunks, tasksPerChunk,',
    '       sharedFileSizeBytes, unsharedInputsPerTask, unsharedInputSizeBytes, outputSizeBytes, runTimeS',
    '       (distributions: {"kind":"constant","value":V}, {"kind":"uniform","min":A,"max":B} or',
    '       {"kind":"normal","mean":M,"stddev":S,"min":A,"max":B}), and optionally architectures,',
    '       archRunTimeFactors, ccr {ratio, referenceBandwidthBps}, perturbation, runTimeEstimateErrorPct,',
    '       sizeEstimateErrorPct. ins2d: the same without sharing, with "tasks" instead of chunks.',
    'grid:  SPEC.json holds a GridSpec (src/generators/grid.ts); OUT is the grid file, behaviour files are',
    '       written beside it.',
    'swf:   SPEC.json holds a WorkloadSpec (src/batch/workload-generator.ts): jobs, nodes, coresPerNode, and',
    '       optionally load, serialFraction, powerOfTwoFraction, maxJobCores, runTimeMedianS, runTimeSigma,',
    '       maxRunTimeS, exactEstimateFraction, overestimateMax, requestRoundingS; OUT is an SWF workload.',
  ].join('\n'),
  options: {
    output: { type: 'string', short: 'o', description: 'the file to write', valueName: 'OUT' },
    seed: { type: 'string', description: 'generator seed (default 1)', valueName: 'N' },
    root: { type: 'string', description: 'fig11: the folder to write under', valueName: 'DIR' },
  },
  positionals: { min: 1, max: 2 },
  async run(args) {
    const kind = args.positionals[0]!;
    if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown kind '${kind}'; expected one of ${KINDS.join(', ')}`);
    if (kind === 'fig11') {
      if (args.positionals.length > 1) throw new UsageError('fig11 takes no specification file');
      const written = writeFig11Files(stringOption(args, 'root') ?? '.');
      for (const f of written) console.error(`wrote ${f}`);
      return 0;
    }
    const specPath = args.positionals[1];
    if (specPath === undefined) throw new UsageError(`${kind} needs a specification file`);
    const out = stringOption(args, 'output');
    if (out === undefined) throw new UsageError('-o OUT is required');
    const seed = numberOption(args, 'seed', 1, { min: 0, max: 2 ** 32 - 1, integer: true });
    const rng = new Rng(seed);
    const spec = readSpec(specPath);
    if (kind === 'swf') {
      const jobs = generated(specPath, () => writeGeneratedWorkload(spec as WorkloadSpec, seed, out));
      console.error(`wrote ${out}: ${jobs} jobs`);
    } else if (kind === 'grid') {
      const grid = generated(specPath, () => generateGrid(spec as GridSpec, rng));
      writeGrid(dirname(out), basename(out), grid);
      console.error(`wrote ${out}: ${grid.events.length} events, ${grid.linkBehaviors.size + grid.hostBehaviors.size} behaviour files`);
    } else {
      const app = generated(specPath, () => (kind === 'mcell' ? generateMcellApplication(spec as McellSpec, rng) : generateIns2dApplication(spec as Ins2dSpec, rng)));
      saveApplication(out, app);
      console.error(`wrote ${out}: ${app.works.length} tasks, ${app.files.length} files`);
    }
    return 0;
  },
};

export default command;
