// Parallel workload files (.pwl): the shipped example and fixtures read from disk, every mistake reported
// at file:line:column with what was expected, draws reproducible per job, and the writer read back exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseParallelWorkload, writeParallelWorkload } from '../../src/formats/parallel-workload.js';
import { generateStructuredWorkload } from '../../src/batch/timeshare/workload-generator.js';
import { MAX_TIMESHARED_CPUS } from '../../src/batch/cluster-limits.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { errorLines, inputErrors, theError } from './helpers.js';

const FIXTURES = join(PACKAGE_ROOT, 'test/fixtures/parallel');
const read = (path: string) => parseParallelWorkload(readFileSync(path, 'utf8'), path);

describe('parallel workload files', () => {
  it('reads lists, constants and defaults as written (values by hand from good-lists.pwl)', () => {
    const w = read(join(FIXTURES, 'good-lists.pwl'));
    expect(w.seed).toBe(1);
    expect(w.jobs).toEqual([
      { id: 10, submitS: 0, tasks: 3, iterations: 2, computeS: [1, 2, 3], ioS: [0, 0.5, 0], pattern: 'tree', messageBytes: 64, jobClass: 'a' },
      // io, pattern, message and class left out: no I/O, no messages, no class.
      { id: 11, submitS: 2.5, tasks: 1, iterations: 1, computeS: [4], ioS: [0], pattern: 'none', messageBytes: 0 },
    ]);
    expect(w.places).toEqual([{ line: 3, tasksColumn: 23 }, { line: 4, tasksColumn: 25 }]);
  });

  it('the shipped example: draws inside their bounds, one stream per job', () => {
    const path = join(PACKAGE_ROOT, 'griddescs/timeshare/small-mix.pwl');
    const w = read(path);
    expect(w.seed).toBe(29);
    expect(w.jobs.map((j) => j.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const j1 = w.jobs[0]!;
    expect(j1.computeS).toHaveLength(8);
    for (const v of j1.computeS) expect(v >= 0.004 && v < 0.006).toBe(true);
    expect(new Set(j1.computeS).size).toBe(8);
    expect(w.jobs[3]!.ioS.every((v) => v > 0)).toBe(true);
    // Same file, same values; a job's draws do not depend on the jobs before it.
    expect(read(path).jobs).toEqual(w.jobs);
    const text = readFileSync(path, 'utf8');
    const alone = parseParallelWorkload(text.replace(/^Job [2-6] .*$/gm, ''), path);
    expect(alone.jobs[0]!.computeS).toEqual(j1.computeS);
    const reseeded = parseParallelWorkload(text.replace('seed 29', 'seed 30'), path);
    expect(reseeded.jobs[0]!.computeS).not.toEqual(j1.computeS);
  });

  it('reports every mistake of bad-fields.pwl at its line and column', () => {
    const d = inputErrors(() => read(join(FIXTURES, 'bad-fields.pwl')));
    expect(errorLines(d)).toEqual([
      "3:59 unknown communication pattern 'nearest-neighbour'",
      '4:22 task count is below 1',
      '5:46 a list of compute time (s) needs one value per task: 4, not 3',
      '6:37 job 4 lacks compute',
      '7:59 uniform 0.02 0.01: the high bound is below the low one',
      '8:5 job 1 is defined twice (first on line 3)',
      '9:14 negative submit time (s)',
      '9:25 tasks is given twice in this job',
      '9:44 iteration count must be a whole number',
      "10:59 unexpected '4k' in a job line",
    ]);
    expect(theError(d, 'nearest-neighbour')).toMatchObject({ expected: 'one of none, ring, all-to-all, tree', hint: "did you mean 'ring'?" });
    expect(theError(d, 'lacks compute').hint).toContain('Job ID submit S tasks N');
    expect(d[0]!.pos.file).toBe(join(FIXTURES, 'bad-fields.pwl'));
  });

  it('a file without its header, an empty one, one without jobs, another version', () => {
    expect(errorLines(inputErrors(() => read(join(FIXTURES, 'bad-header.pwl'))))).toEqual(["2:1 unexpected 'Job' in the parallel workload header"]);
    expect(errorLines(inputErrors(() => parseParallelWorkload('# nothing\n', 'e.pwl')))).toEqual(['1:1 empty parallel workload']);
    expect(errorLines(inputErrors(() => parseParallelWorkload('ParallelWorkload 1\n# no job\n', 'n.pwl')))).toEqual(['1:1 the parallel workload has no job']);
    expect(errorLines(inputErrors(() => parseParallelWorkload('ParallelWorkload 2\nJob 1 submit 0 tasks 1 iterations 1 compute 1\n', 'v.pwl')))).toEqual(['1:18 unsupported parallel workload version 2']);
  });

  it('a job of more tasks than a time-shared cluster may have CPUs (each task would get its arrays)', () => {
    const text = (tasks: number) => `ParallelWorkload 1\nJob 1 submit 0 tasks ${tasks} iterations 1 compute 1\n`;
    expect(errorLines(inputErrors(() => parseParallelWorkload(text(MAX_TIMESHARED_CPUS + 1), 't.pwl')))).toEqual([`2:22 task count is above ${MAX_TIMESHARED_CPUS}`]);
    expect(errorLines(inputErrors(() => parseParallelWorkload(text(499_999_999_999), 't.pwl')))).toEqual([`2:22 task count is above ${MAX_TIMESHARED_CPUS}`]);
    expect(parseParallelWorkload(text(MAX_TIMESHARED_CPUS), 't.pwl').jobs[0]!.tasks).toBe(MAX_TIMESHARED_CPUS);
  });

  it('the writer gives back the generated workload exactly', () => {
    const jobs = generateStructuredWorkload({ seed: 3, jobs: 40, nodes: 16, mix: { comm: 1, io: 1, cpu: 1 } });
    const text = writeParallelWorkload(jobs, ['generated']);
    expect(text.startsWith('# generated\nParallelWorkload 1\n')).toBe(true);
    expect(parseParallelWorkload(text, 'w.pwl').jobs).toEqual(jobs);
  });

  it('a load that would spread the jobs past 2^53 s (which the reader refuses) is an error of the generator', () => {
    // Before, generate parallel wrote submit times such as 5.4e+298, which trace then refused.
    const thin = { seed: 3, jobs: 40, nodes: 16, mix: { comm: 1 }, load: 1e-300 };
    expect(() => generateStructuredWorkload(thin)).toThrow(/^load 1e-300 spreads the jobs too thin: job 1 would be submitted after 2\^53 s; raise "load" or lower "jobs"$/);
    const lowest = generateStructuredWorkload({ ...thin, load: 1e-9 });
    expect(parseParallelWorkload(writeParallelWorkload(lowest, ['sparse']), 'w.pwl').jobs).toEqual(lowest);
  });
});
