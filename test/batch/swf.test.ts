// The SWF reader on real files: the header, what -1 means, skipped jobs, and a structured error for every
// kind of malformed line; the writer and the generator round-trip through it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BatchJob } from '../../src/batch/job.js';
import { headerValue } from '../../src/batch/swf/fields.js';
import { SwfWorkload } from '../../src/batch/swf/workload.js';
import { writeGeneratedWorkload } from '../../src/batch/swf/write-generated.js';
import { generateWorkload } from '../../src/batch/workload-generator.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'gs-swf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readAll(path: string, cores = Infinity): { jobs: BatchJob[]; workload: SwfWorkload } {
  const workload = new SwfWorkload(path);
  workload.header();
  workload.limitCores(cores);
  const jobs: BatchJob[] = [];
  for (let j = workload.next(); j !== undefined; j = workload.next()) jobs.push(j);
  return { jobs, workload };
}

function errorOf(text: string | Buffer): InputError {
  const path = join(dir, `bad-${Math.random().toString(36).slice(2)}.swf`);
  writeFileSync(path, text);
  try {
    readAll(path);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`no error for ${JSON.stringify(text.toString())}`);
}

const GOOD = '1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1';

describe('reading SWF', () => {
  it('reads the header, skips what cannot run (counted, with job numbers) and fills in unknowns', () => {
    const { jobs, workload } = readAll(join(PACKAGE_ROOT, 'test/fixtures/swf/hand.swf'), 8);
    expect(workload.header()).toMatchObject({ maxNodes: 2, maxProcs: 8, unixStartTime: 1_000_000_000 });
    expect(headerValue(workload.header(), 'Computer')).toBe('a hand-written test cluster');
    expect(workload.header().fields.map((f) => f.key)).toEqual(['Version', 'Computer', 'MaxNodes', 'MaxProcs', 'UnixStartTime', 'Note']);
    expect(jobs).toEqual([
      { id: 1, submitS: 0, runS: 100, cores: 2, requestedS: 200, userId: 7 },
      // requested time unknown → the run time
      { id: 2, submitS: 10, runS: 50, cores: 4, requestedS: 50, userId: 8 },
      // requested processors unknown → the allocated ones (field 5); tabs separate fields too
      { id: 4, submitS: 30, runS: 20, cores: 3, requestedS: 60, userId: 9 },
      // a zero requested time counts as one second
      { id: 6, submitS: 40, runS: 0, cores: 1, requestedS: 1, userId: 7 },
    ]);
    expect(workload.warnings()).toEqual([
      // job 3 is cancelled (status 5) with an unknown run time: it never started
      expect.stringMatching(/hand\.swf: skipped 1 job: cancelled before starting \(status 5, run time ≤ 0\) \(job 3\)$/),
      expect.stringMatching(/hand\.swf: skipped 1 job: more cores than the cluster has \(job 5\)$/),
    ]);
  });

  it('streams a file larger than its read buffer, line by line', () => {
    const path = join(dir, 'big.swf');
    const lines: string[] = ['; MaxNodes: 1'];
    for (let i = 1; i <= 60_000; i++) lines.push(`${i} ${i} -1 ${i % 97} 1 -1 -1 1 100 -1 1 3 -1 -1 -1 -1 -1 -1`);
    writeFileSync(path, lines.join('\n'));
    const { jobs } = readAll(path);
    expect(jobs).toHaveLength(60_000);
    expect(jobs[59_999]).toEqual({ id: 60_000, submitS: 60_000, runS: 60_000 % 97, cores: 1, requestedS: 100, userId: 3 });
  });

  it('round-trips generated workloads through the writer', () => {
    const spec = { jobs: 500, nodes: 8, coresPerNode: 4 };
    const path = join(dir, 'gen.swf');
    expect(writeGeneratedWorkload(spec, 7, path)).toBe(500);
    const { jobs, workload } = readAll(path);
    expect(workload.header()).toMatchObject({ maxNodes: 8, maxProcs: 32 });
    expect(jobs).toEqual([...generateWorkload(spec, 7)]);
    const again = join(dir, 'gen2.swf');
    writeGeneratedWorkload(spec, 7, again);
    expect(readFileSync(again)).toEqual(readFileSync(path));
    writeGeneratedWorkload(spec, 8, again);
    expect(readFileSync(again)).not.toEqual(readFileSync(path));
  });
});

describe('malformed SWF: file:line:column, the field, what was expected', () => {
  it('a line with the wrong number of fields', () => {
    const err = errorOf(`; header\n${GOOD}\n2 5 -1 10 1 -1 -1 1 20\n`);
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 3, column: 1 }, message: 'a job line has 9 fields', expected: '18 whitespace-separated numbers' });
  });

  it('a negative value other than -1, naming the field', () => {
    const err = errorOf(`${GOOD}\n2 5 -1 -7 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n`);
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 2, column: 8 }, message: 'field 4 (run time) is negative', found: "'-7'" });
  });

  it('a value that is not a number', () => {
    const err = errorOf(`${GOOD}\n2 5 -1 10 1 -1 -1 four 20 -1 1 1 1 1 1 -1 -1 -1\n`);
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 2, column: 19 }, message: 'field 8 (requested processors) is not a number', found: "'four'" });
  });

  it('a truncated last line', () => {
    const err = errorOf(`${GOOD}\n2 5 -1 10 1 -1`);
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 2, column: 1 }, message: 'a job line has 6 fields' });
    expect(err.diagnostics[0]!.hint).toMatch(/truncated/);
  });

  it('binary garbage', () => {
    const err = errorOf(Buffer.from([0x00, 0xff, 0xfe, 0x20, 0x31, 0x0a]));
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 1, column: 1 }, message: 'field 1 (job number) is not a number', found: "'\\x00\\xff\\xfe'" });
  });

  it('jobs out of submit order, with the fix', () => {
    const err = errorOf(`${GOOD.replace(/^1 0/, '1 50')}\n2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n`);
    expect(err.diagnostics[0]).toMatchObject({ pos: { line: 2 }, message: 'job 2 is submitted at 5 s, before the previous job (50 s)' });
    expect(err.diagnostics[0]!.hint).toMatch(/sort -n -k2/);
  });

  it('a file that cannot be read', () => {
    expect(() => new SwfWorkload(join(dir, 'missing.swf'))).toThrow(/missing\.swf:1:1: error: cannot read the workload/);
  });
});
