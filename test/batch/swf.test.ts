// The SWF reader on real files: the header, what -1 means, skipped jobs, and a structured error for every
// kind of malformed line; the writer and the generator round-trip through it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BatchJob } from '../../src/batch/job.js';
import { headerValue } from '../../src/batch/swf/fields.js';
import { SwfReader } from '../../src/batch/swf/reader.js';
import { SwfWorkload } from '../../src/batch/swf/workload.js';
import { writeGeneratedWorkload } from '../../src/batch/swf/write-generated.js';
import { generateWorkload } from '../../src/batch/workload-generator.js';
import { MAX_JOB_TIME_S, workloadSpecDiagnostics } from '../../src/batch/workload-schema.js';
import { parseJsonSource } from '../../src/sweep/json-source.js';
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

  it('reads every form of number a field may take, the last line without its newline', () => {
    // Whole numbers of up to 15 digits are read as the field is found, the rest by the general path.
    const fields = ['-1', '-0', '0', '007', '12.5', '0.25', '123456789012345', '1234567890123456', '9007199254740991', '3.', '1', '2', '3', '4', '5', '6', '7', '8'];
    const path = join(dir, 'forms.swf');
    writeFileSync(path, `; forms\n${fields.join(' ')}\n \t${fields.join('\t ').replace('-1', '42')}`);
    const reader = new SwfReader(path);
    expect(reader.next()).toBe(true);
    expect([...reader.fields]).toEqual(fields.map(Number));
    expect(Object.is(reader.fields[1], -0)).toBe(true);
    expect(reader.next()).toBe(true);
    expect(reader.fields[0]).toBe(42);
    expect([...reader.fields.subarray(1)]).toEqual(fields.slice(1).map(Number));
    expect(reader.next()).toBe(false);
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

describe('generated workloads at the edges of their specification', () => {
  it('the longest times the schema allows still write an SWF file the reader takes, every field a whole number', () => {
    const spec = { jobs: 300, nodes: 4, coresPerNode: 2, load: 0.001, runTimeMedianS: MAX_JOB_TIME_S, runTimeSigma: 3, maxRunTimeS: MAX_JOB_TIME_S, requestRoundingS: MAX_JOB_TIME_S, overestimateMax: 1e6 };
    expect(workloadSpecDiagnostics(parseJsonSource(JSON.stringify(spec), 'edge.json'))).toEqual([]);
    const path = join(dir, 'edge.swf');
    expect(writeGeneratedWorkload(spec, 3, path)).toBe(300);
    const { jobs } = readAll(path);
    expect(jobs).toEqual([...generateWorkload(spec, 3)]);
    for (const j of jobs) for (const v of [j.submitS, j.runS, j.requestedS]) expect(Number.isSafeInteger(v), String(v)).toBe(true);
  });

  it('times past what the schema allows are refused where they are written, and a load that spreads the jobs past 2^53 s is an error, with no file left', () => {
    const far = workloadSpecDiagnostics(parseJsonSource('{"jobs": 2, "nodes": 1, "coresPerNode": 1,\n "runTimeMedianS": 1e300, "maxRunTimeS": 1e300}', 'far.json'));
    expect(far.map((d) => `${d.pos.line}:${d.pos.column} ${d.message}`)).toEqual(['2:20 /runTimeMedianS: must be <= 1000000000', '2:42 /maxRunTimeS: must be <= 1000000000']);
    const path = join(dir, 'thin.swf');
    expect(() => writeGeneratedWorkload({ jobs: 50, nodes: 4, coresPerNode: 2, load: 1e-300 }, 1, path)).toThrow(/^load 1e-300 spreads the jobs too thin: job 1 would be submitted after 2\^53 s; raise "load" or lower "jobs"$/);
    expect(existsSync(path)).toBe(false);
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

  it('a field that starts as a number and goes on as something else, a lone sign, a number past 2^53', () => {
    for (const [field, column, message] of [
      ['12a', 3, 'field 2 (submit time) is not a number'],
      ['1e5', 3, 'field 2 (submit time) is not a number'],
      ['-', 3, 'field 2 (submit time) is not a number'],
      ['5-', 3, 'field 2 (submit time) is not a number'],
      ['-12', 3, 'field 2 (submit time) is negative'],
      ['9007199254740992', 3, 'field 2 (submit time) is too large'],
    ] as const) {
      const err = errorOf(`${GOOD}\n2 ${field} -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n`);
      expect(err.diagnostics[0]).toMatchObject({ pos: { line: 2, column }, message, found: `'${field}'` });
    }
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
