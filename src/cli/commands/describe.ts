// `gridsweep describe SWEEP [-o FILE]`: the application description (WorkDescription) a sweep file stands for.
import { dirname, resolve } from 'node:path';
import type { Command } from '../command.js';
import { stringOption } from '../args.js';
import { saveApplication, writeApplication } from '../../formats/index.js';
import { loadRealGrid, realGridArchitectures } from '../../realgrid/real-grid-file.js';
import { expandSweep } from '../../sweep/expand.js';
import { loadSweepFile } from '../../sweep/sweep-file.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

export const SWEEP_FORMAT_HELP = [
  'A sweep file is JSON:',
  '  {',
  '    "sweep": 1,',
  '    "command": ["sh", "sim.sh", "--seed", "{seed}", "--model", "{model}", "--out", "{out}"],',
  '    "parameters": { "size": ["small", "large"], "seed": { "from": 1, "to": 30, "step": 1 } },',
  '    "zip": [["alpha", "beta"]],',
  '    "inputs":  { "program": "sim.sh", "model": "models/{size}.txt" },',
  '    "outputs": { "out": "results/{size}-{seed}.txt" },',
  '    "estimates": { "runTimeS": 60, "outputSizeBytes": 1000 }',
  '  }',
  'The command is an argv: each element is one argument, passed literally (no shell). {name} stands for',
  'a parameter, an input or output path, or {task} (the task number); {{ and }} are literal braces.',
  'Parameters form a cartesian product, the first varying slowest; parameters of a "zip" group vary',
  'together. Paths are relative to the origin directory; an input named by several tasks is one shared',
  'file, sent once to each cluster. runTimeS may be a list, one estimate per architecture.',
].join('\n');

const command: Command = {
  name: 'describe',
  summary: COMMAND_SUMMARIES.describe,
  usage: 'gridsweep describe SWEEP.json [-o FILE] [--origin DIR | --grid REALGRID.json]',
  details: `${SWEEP_FORMAT_HELP}\nInput sizes are read from the files in the origin directory: --origin, else the real grid's\norigin, else the sweep file's directory. --grid also sets the number of architectures.`,
  options: {
    out: { type: 'string', short: 'o', description: 'write to this file (atomically) instead of standard output', valueName: 'FILE' },
    origin: { type: 'string', description: 'the origin directory holding the input files', valueName: 'DIR' },
    grid: { type: 'string', description: 'a real grid file (origin directory and architectures)', valueName: 'REALGRID' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const sweepPath = args.positionals[0]!;
    expectFileKind(sweepPath, ['sweep'], 'describe', 'a sweep file');
    const loaded = loadSweepFile(sweepPath);
    const gridPath = stringOption(args, 'grid');
    if (gridPath !== undefined) expectFileKind(gridPath, ['real-grid'], 'describe --grid', 'a real grid file');
    const grid = gridPath !== undefined ? loadRealGrid(gridPath) : undefined;
    const originDir = stringOption(args, 'origin') ?? grid?.originDir ?? dirname(resolve(sweepPath));
    const expanded = expandSweep(loaded, { originDir, ...(grid ? { architectures: realGridArchitectures(grid) } : {}) });
    const out = stringOption(args, 'out');
    if (out === undefined) process.stdout.write(writeApplication(expanded.application));
    else {
      saveApplication(out, expanded.application);
      const { files, works } = expanded.application;
      console.error(`${out}: ${works.length} tasks, ${files.length} files`);
    }
    return 0;
  },
};

export default command;
