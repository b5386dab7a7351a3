// `gridsweep demo [--out DIR] [--jobs N] [--seeds N] [--sizes LIST] [--quick]`: the Figure 11 study on the
// bundled files, a table of median makespans, and a self-contained HTML report with the charts.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, numberOption, stringOption } from '../args.js';
import { defaultWorkerCount } from '../../experiment/pool.js';
import type { ExperimentProgress } from '../../experiment/run-experiment.js';
import { mkdirSync } from 'node:fs';
import { DemoFailedError, runDemo, type DemoOutcome } from '../../demo/run-demo.js';
import { DEFAULT_STUDY, QUICK_STUDY, SHIPPED_SIZES_KB, type StudySize } from '../../demo/study.js';
import { formatSize } from '../../demo/narrative.js';
import { formatMatrixProgress, progressLine } from '../progress-line.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

export const DEFAULT_DEMO_DIR = 'gridsweep-demo';

function parseSizes(raw: string): number[] {
  const sizes = raw.split(',').map((s) => s.trim());
  const values = sizes.map(Number);
  const bad = sizes.find((s, i) => s === '' || !Number.isFinite(values[i]) || values[i]! <= 0);
  if (bad !== undefined) throw new UsageError(`--sizes takes a comma-separated list of sizes in KB > 0 (e.g. ${SHIPPED_SIZES_KB.join(',')}), got '${raw}'`);
  return [...new Set(values)].sort((a, b) => a - b);
}

const command: Command = {
  name: 'demo',
  summary: COMMAND_SUMMARIES.demo,
  usage: 'gridsweep demo [--out DIR] [--jobs N] [--seeds N] [--sizes LIST] [--quick]',
  details: [
    'Simulates the setting of Figure 11 of the simulator paper (Berman et al. 1999, §8) on the bundled grid',
    '(griddescs/fig11): 400 tasks in 8 chunks sharing one input file each, on 3 clusters behind 10 KB/s links,',
    'with every registered heuristic, for increasing shared file sizes and several seeds. Each seed draws the',
    'application again and drives the randomized heuristics; the first seed gives the bundled apps/fig11 files.',
    `Default: sizes ${DEFAULT_STUDY.sizesKB.join(', ')} KB × ${DEFAULT_STUDY.seedCount} seeds (under a minute on 2 cores);`,
    `--quick: sizes ${QUICK_STUDY.sizesKB.join(', ')} KB × ${QUICK_STUDY.seedCount} seeds.`,
    'Prints the median makespan of each heuristic at each size and what the numbers show, then writes',
    'DIR/report.html (self-contained: open it in any browser, offline), DIR/results.csv and DIR/results.json,',
    'and DIR/study.json, the experiment specification (`gridsweep experiment DIR/study.json --out DIR` reruns it).',
    'Every run is cached in DIR/runs: running the demo again only simulates what is new.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', description: `output folder (default ./${DEFAULT_DEMO_DIR})`, valueName: 'DIR' },
    jobs: { type: 'string', short: 'j', description: `worker threads (default ${defaultWorkerCount()}, the available CPUs)`, valueName: 'N' },
    seeds: { type: 'string', description: 'number of seeds (default 3; 2 with --quick)', valueName: 'N' },
    sizes: { type: 'string', description: 'shared file sizes in KB, comma-separated (default 100,1200,2400,4800,9600)', valueName: 'LIST' },
    quick: { type: 'boolean', description: 'a smaller study (2 sizes × 2 seeds), for a first look and for tests' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress line' },
  },
  positionals: { min: 0, max: 0 },
  async run(args) {
    const base = flagOption(args, 'quick') ? QUICK_STUDY : DEFAULT_STUDY;
    const sizesRaw = stringOption(args, 'sizes');
    const study: StudySize = {
      sizesKB: sizesRaw === undefined ? base.sizesKB : parseSizes(sizesRaw),
      seedCount: numberOption(args, 'seeds', base.seedCount, { min: 1, max: 1000, integer: true }),
    };
    const jobs = numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true });
    const outDir = stringOption(args, 'out') ?? DEFAULT_DEMO_DIR;
    try {
      mkdirSync(outDir, { recursive: true });
    } catch (err) {
      throw new UsageError(`cannot create the output folder ${outDir}: ${(err as Error).message}; choose another with --out DIR`);
    }
    const showProgress = args.values['quiet'] !== true && process.stderr.isTTY === true;
    const line = progressLine(process.stderr, showProgress);
    const where = stringOption(args, 'out') === undefined ? ' (in the current directory; --out to change)' : '';
    const onStart = ({ runs }: { runs: number }): void =>
      console.error(`gridsweep demo: the Figure 11 study, ${runs} simulations (${study.sizesKB.length} sizes × ${study.seedCount} seeds × every heuristic) on ${jobs} worker thread(s); output in ${outDir}/${where}`);
    const onProgress = (p: ExperimentProgress): void => {
      line.update(formatMatrixProgress(p));
    };
    let outcome: DemoOutcome;
    try {
      outcome = await runDemo({ outDir, jobs, study, onStart, ...(showProgress ? { onProgress } : {}) });
    } catch (err) {
      if (!(err instanceof DemoFailedError)) throw err;
      line.done();
      console.error(`gridsweep demo: ${err.message}`);
      return 1;
    }
    line.done();
    const { experiment: x, findings } = outcome;
    console.log(x.table.format());
    console.log('');
    console.log(`What it shows (at ${formatSize(findings.atSizeKB)}):`);
    for (const s of findings.sentences) console.log(`- ${s}`);
    console.log('');
    console.log(`Compared with the paper (Berman et al. 1999, §8): ${findings.paperVerdict}`);
    for (const c of findings.paper) console.log(`- [${c.agrees === null ? 'not checked' : c.agrees ? 'agrees' : 'differs'}] ${c.claim}: ${c.detail}`);
    console.log('');
    console.log(`${x.total} runs: ${x.simulated} simulated, ${x.cached} from the cache, ${x.failures.length} failed, in ${(x.elapsedMs / 1000).toFixed(1)} s`);
    console.log(`wrote ${outcome.reportPath} (open it in a browser), ${x.csvPath}, ${x.jsonPath} and ${outcome.specPath}`);
    for (const f of x.failures.slice(0, 10)) console.error(`failed: ${f.run}: ${f.message}`);
    if (x.failures.length > 10) console.error(`... and ${x.failures.length - 10} more failures`);
    return x.failures.length === 0 ? 0 : 1;
  },
};

export default command;
