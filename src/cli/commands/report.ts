// `gridsweep report RECORD.jsonl -o OUT`: a self-contained HTML report, or a Chrome/Perfetto trace.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { requiredString, stringOption } from '../args.js';
import { writeReport, type ReportFormat } from '../../report/write-report.js';
import { expectFileKind, sniffFileKind } from '../../formats/file-kind.js';
import { writeTimeshareReport } from '../../report/timeshare-profile.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const command: Command = {
  name: 'report',
  summary: COMMAND_SUMMARIES.report,
  usage: 'gridsweep report RECORD.jsonl -o OUT [--format html|chrome] | gridsweep report TIMESHARE.json... -o OUT.html|OUT.svg',
  details: [
    'html: one self-contained file (inline SVG and CSS, no scripts, no network): the run parameters,',
    '  a summary, the Gantt chart (one row per link and host, grouped by cluster) and statistics.',
    'chrome: trace-event JSON (open it in https://ui.perfetto.dev or chrome://tracing): one process',
    '  per cluster, one thread per link or host, one complete event per sub-task.',
    'TIMESHARE.json...: the outputs of `gridsweep trace WORKLOAD --timeshare STRATEGY --json`, one run per',
    '  file: the execution profile of each run as a stacked bar (compute, spin, context switch, interrupt,',
    '  idle; as Zhang and Sivasubramaniam 2004, Figure 9) and a table of their metrics. OUT.svg: the chart alone.',
    'The output is written atomically; nothing is written if the record has errors.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', description: 'the file to write', valueName: 'OUT' },
    format: { type: 'string', short: 'f', description: 'html or chrome', valueName: 'FORMAT', default: 'html' },
  },
  positionals: { min: 1, max: 64 },
  async run(args) {
    if (args.positionals.some((p) => sniffFileKind(p) === 'timeshare-result')) {
      for (const p of args.positionals) expectFileKind(p, ['timeshare-result'], 'report (time-shared runs)', 'the result of a time-shared trace (trace --timeshare --json)');
      if ((stringOption(args, 'format') ?? 'html') !== 'html') throw new UsageError('--format goes with a run record; time-shared runs give an HTML page, or the chart alone with -o OUT.svg');
      const out = requiredString(args, 'out');
      const { runs, bytes } = await writeTimeshareReport(args.positionals, out);
      console.log(`${out}: execution profiles of ${runs} time-shared run${runs === 1 ? '' : 's'} (${bytes} bytes)`);
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError('one run record at a time (several files: the outputs of trace --timeshare --json)');
    const format = stringOption(args, 'format') ?? 'html';
    if (format !== 'html' && format !== 'chrome') throw new UsageError(`--format takes html or chrome, got '${format}'`);
    const out = requiredString(args, 'out');
    const record = args.positionals[0]!;
    expectFileKind(record, ['run-record'], 'report', 'a run record');
    const { subtasks, bytes } = await writeReport(record, out, format as ReportFormat);
    console.log(`${out}: ${format === 'html' ? 'HTML report' : 'Chrome trace'} of ${subtasks} sub-tasks (${bytes} bytes)`);
    return 0;
  },
};

export default command;
