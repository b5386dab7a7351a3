// `gridsweep plot RESULTS.json --kind line|box -o out.svg` and `gridsweep plot RUN.jsonl --kind gantt -o out.svg`.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, stringOption } from '../args.js';
import { writeFileAtomicSync } from '../../util/atomic-write.js';
import { loadRunRecord } from '../../record/record-reader.js';
import { ganttChart } from '../../plot/index.js';
import { loadResults, makespanBoxPlot, makespanLineChart } from '../../experiment/results-plots.js';
import { expectFileKind, sniffFileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const KINDS = ['line', 'box', 'gantt'] as const;
type Kind = (typeof KINDS)[number];

const command: Command = {
  name: 'plot',
  summary: COMMAND_SUMMARIES.plot,
  usage: 'gridsweep plot RESULTS.json [--kind line|box] -o OUT.svg | gridsweep plot RUN.jsonl [--kind gantt] -o OUT.svg',
  details: [
    'line:  median makespan across seeds against the swept variable, one line per heuristic, with the lower bound.',
    'box:   makespan across seeds, one box per heuristic for each swept value.',
    'gantt: the run record of one run (JSON Lines): a row per link and host, grouped by cluster.',
    'The kind defaults to gantt for a .jsonl file and to line otherwise.',
  ].join('\n'),
  options: {
    kind: { type: 'string', short: 'k', description: 'line, box or gantt', valueName: 'KIND' },
    out: { type: 'string', short: 'o', description: 'the SVG file to write (atomically)', valueName: 'OUT.svg' },
    'log-x': { type: 'boolean', description: 'line chart: logarithmic x axis' },
    title: { type: 'string', description: 'chart title', valueName: 'TEXT' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const input = args.positionals[0]!;
    const out = stringOption(args, 'out');
    if (out === undefined) throw new UsageError('-o OUT.svg is required');
    const sniffed = sniffFileKind(input);
    const kindArg = stringOption(args, 'kind') ?? (input.endsWith('.jsonl') || sniffed === 'run-record' ? 'gantt' : 'line');
    if (!(KINDS as readonly string[]).includes(kindArg)) throw new UsageError(`--kind takes ${KINDS.join(', ')}, got '${kindArg}'`);
    const kind = kindArg as Kind;
    if (kind === 'gantt') expectFileKind(input, ['run-record'], 'plot --kind gantt', 'a run record');
    else expectFileKind(input, ['experiment-results'], `plot --kind ${kind}`, "an experiment's results.json");
    const title = stringOption(args, 'title');
    let svg: string;
    if (kind === 'gantt') {
      svg = ganttChart(await loadRunRecord(input), title === undefined ? {} : { title });
    } else {
      const results = loadResults(input);
      if (results.rows.length === 0) throw new UsageError(`${input} has no rows to plot`);
      svg = kind === 'line' ? makespanLineChart(results, { logX: flagOption(args, 'log-x'), ...(title === undefined ? {} : { title }) }) : makespanBoxPlot(results, title === undefined ? {} : { title });
    }
    writeFileAtomicSync(out, svg);
    console.error(`wrote ${out}`);
    return 0;
  },
};

export default command;
