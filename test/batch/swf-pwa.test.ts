// An SWF file as the Parallel Workloads Archive ships it: gzip'd, with a full header (multi-line fields,
// repeated keys) and the lines researchers clean out (partial records of checkpointed jobs, jobs cancelled
// before starting, unknown run times, zero processors). Read through SwfWorkload, runTrace and the
// `trace` command in-process; the gz and plain files must give the same figures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { formatSwfHeader } from '../../src/trace/format-trace.js';
import { runTrace } from '../../src/trace/run-trace.js';
import { headerValue, headerValues } from '../../src/batch/swf/fields.js';
import { SwfWorkload } from '../../src/batch/swf/workload.js';
import command from '../../src/cli/commands/trace.js';
import { InputError } from '../../src/util/diagnostics.js';

const dir = mkdtempSync(join(tmpdir(), 'gs-swf-pwa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const HEADER = `; Version: 2.2
; Computer: Hypothetical HPC-8 cluster
; Installation: Test Centre for Workload Studies (TCWS)
; Acknowledge: the operators of the TCWS batch system
; Information: https://example.org/workloads/tcws
;              https://example.org/workloads/tcws/README
; Conversion: gridsweep test suite, from an invented accounting log
; MaxJobs: 30
; MaxRecords: 34
; Preemption: Yes
; UnixStartTime: 1136073600
; TimeZone: 0
; TimeZoneString: Europe/London
; StartTime: Sun Jan  1 00:00:00 GMT 2006
; EndTime:   Sun Jan  1 01:00:00 GMT 2006
; MaxNodes: 8
; MaxProcs: 32
; MaxRuntime: 7200
; MaxMemory: 4194304
; AllowOveruse: No
; MaxQueues: 2
; Queues: jobs are routed by their requested time
; Queue: 1 short (at most 1 hour)
; Queue: 2 long (at most 2 hours)
; MaxPartitions: 1
; Partitions: one partition
; Partition: 1 the whole machine
; Note: jobs 7 and 8 were checkpointed; their pieces have
;       status 2 (to be continued), 3 (last piece, completed)
;       or 4 (last piece, failed)
; Note: job 20 was cancelled while it waited
;
`;

/** One SWF line; wait, memory, group, executable, partition and the last two fields unknown. */
function line(id: number, submitS: number, runS: number, procs: number, requestedS: number, status: number, allocated = procs): string {
  return [id, submitS, -1, runS, allocated, -1, -1, procs, requestedS, -1, status, 100 + (id % 3), -1, -1, 1, -1, -1, -1].join(' ');
}

// Jobs 1–17 are 100 s apart and short, so none waits for another. The skipped ones, by rule:
//   partial-execution records: 4 lines (two for job 7, two for job 8; one has an earlier submit time,
//     which is allowed for these lines);
//   cancelled before starting: jobs 9 (run -1), 10 (run 0), 20 (run -1) — job 11 ran 80 s, then was
//     cancelled, and is kept;
//   unknown run time: job 12; zero processors: job 13; unknown processor count: job 14;
//   more cores than the cluster has: job 15 (64 > 8 × 4).
// Kept: 30 jobs − 7 = 23, among them job 16 (run 0: zero-length jobs are real) and job 17 (failed, status 0).
// Jobs 18 (1700 + 200) and 19 (1800 + 100) both end at 1900 s; job 21 (1850 s, all 32 cores) waits for
// both, so it starts at 1900 s: a wait of 50 s, the only wait. Jobs 22–30 are 100 s apart again.
const JOBS = [
  line(1, 0, 60, 4, 120, 1),
  line(2, 100, 90, 8, 100, 1),
  line(3, 200, 30, 1, 60, 1),
  line(4, 300, 45, 2, 60, 1),
  line(5, 400, 10, 4, 3600, 1),
  line(6, 500, 70, 16, 600, 1),
  line(7, 600, 90, 8, 600, 1),
  line(7, 550, 40, 8, 600, 2),
  line(7, 600, 50, 8, 600, 3),
  line(8, 700, 80, 4, 600, 0),
  line(8, 700, 30, 4, 600, 2),
  line(8, 700, 50, 4, 600, 4),
  line(9, 800, -1, 4, 600, 5),
  line(10, 900, 0, 4, 600, 5),
  line(11, 1000, 80, 4, 600, 5),
  line(12, 1100, -1, 4, 600, -1),
  line(13, 1200, 30, 0, 600, 1),
  line(14, 1300, 30, -1, 600, 1),
  line(15, 1400, 30, 64, 600, 1),
  line(16, 1500, 0, 1, 60, 1),
  line(17, 1600, 50, 2, 600, 0),
  line(18, 1700, 200, 16, 300, 1),
  line(19, 1800, 100, 16, 300, 1),
  line(20, 1820, -1, 8, 300, 5),
  line(21, 1850, 60, 32, 300, 1),
  ...[22, 23, 24, 25, 26, 27, 28, 29, 30].map((id) => line(id, 2000 + 100 * (id - 22), 50, 4, 100, 1)),
];
const TEXT = HEADER + JOBS.join('\n') + '\n';
const plain = join(dir, 'tcws.swf');
const gz = join(dir, 'tcws.swf.gz');
writeFileSync(plain, TEXT);
writeFileSync(gz, gzipSync(TEXT));

const KEPT = [1, 2, 3, 4, 5, 6, 7, 8, 11, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30];

function readAll(path: string): { ids: number[]; workload: SwfWorkload } {
  const workload = new SwfWorkload(path);
  workload.limitCores(32);
  const ids: number[] = [];
  try {
    for (let j = workload.next(); j !== undefined; j = workload.next()) ids.push(j.id);
  } finally {
    workload.close();
  }
  return { ids, workload };
}

describe('an SWF file as the Parallel Workloads Archive ships it', () => {
  it('the test file is what it claims: 34 job lines, 28 header fields', () => {
    expect(JOBS).toHaveLength(34);
    expect(readFileSync(gz).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('keeps every header field in order, repeated keys and multi-line values included', () => {
    const w = new SwfWorkload(gz);
    const h = w.header();
    w.close();
    expect(h.fields.map((f) => f.key)).toEqual([
      'Version', 'Computer', 'Installation', 'Acknowledge', 'Information', 'Conversion', 'MaxJobs', 'MaxRecords',
      'Preemption', 'UnixStartTime', 'TimeZone', 'TimeZoneString', 'StartTime', 'EndTime', 'MaxNodes', 'MaxProcs',
      'MaxRuntime', 'MaxMemory', 'AllowOveruse', 'MaxQueues', 'Queues', 'Queue', 'Queue', 'MaxPartitions',
      'Partitions', 'Partition', 'Note', 'Note',
    ]);
    // The second URL has a colon but no key: it continues Information.
    expect(headerValue(h, 'Information')).toBe('https://example.org/workloads/tcws\nhttps://example.org/workloads/tcws/README');
    expect(headerValues(h, 'Note')).toEqual([
      'jobs 7 and 8 were checkpointed; their pieces have\nstatus 2 (to be continued), 3 (last piece, completed)\nor 4 (last piece, failed)',
      'job 20 was cancelled while it waited',
    ]);
    expect(headerValues(h, 'queue')).toEqual(['1 short (at most 1 hour)', '2 long (at most 2 hours)']);
    expect(headerValue(h, 'EndTime')).toBe('Sun Jan  1 01:00:00 GMT 2006');
    expect(h).toMatchObject({ maxNodes: 8, maxProcs: 32, maxJobs: 30, maxRuntime: 7200, unixStartTime: 1_136_073_600 });
  });

  it('cleans as researchers do, counting each skipped line under its reason', () => {
    const { ids, workload } = readAll(gz);
    expect(ids).toEqual(KEPT);
    expect(Object.fromEntries(workload.skipped.counts)).toEqual({
      'partial-execution record (status 2, 3, 4)': 4,
      'cancelled before starting (status 5, run time ≤ 0)': 3,
      'unknown run time': 1,
      'zero processors': 1,
      'unknown processor count': 1,
      'more cores than the cluster has': 1,
    });
    expect(workload.skippedTotal).toBe(11);
    expect(workload.warnings().map((w) => w.slice(gz.length + 2))).toEqual([
      'skipped 4 jobs: partial-execution record (status 2, 3, 4) (jobs 7, 7, 8, 8)',
      'skipped 3 jobs: cancelled before starting (status 5, run time ≤ 0) (jobs 9, 10, 20)',
      'skipped 1 job: unknown run time (job 12)',
      'skipped 1 job: zero processors (job 13)',
      'skipped 1 job: unknown processor count (job 14)',
      'skipped 1 job: more cores than the cluster has (job 15)',
    ]);
  });

  it('runTrace gives the same figures from the gz and the plain file, with the hand-computed wait', () => {
    const options = { policy: 'fcfs', allocator: 'first-fit' };
    const fromGz = runTrace({ workloadPath: gz, ...options });
    const fromPlain = runTrace({ workloadPath: plain, ...options });
    expect(fromGz.metrics).toEqual(fromPlain.metrics);
    expect(fromGz.events).toEqual(fromPlain.events);
    expect(fromGz.header).toEqual(fromPlain.header);
    expect(fromGz).toMatchObject({ nodes: 8, coresPerNode: 4, jobsSkipped: 11 });
    expect(fromGz.metrics.jobs).toBe(23);
    expect(fromGz.metrics.killed).toBe(0);
    // Only job 21 waits: 50 s (see the job list).
    expect(fromGz.metrics.waitS.max).toBe(50);
    expect(fromGz.metrics.waitS.mean).toBeCloseTo(50 / 23, 9);
  });

  it('`gridsweep trace FILE.swf.gz`: the header in the report, every field in --json', async () => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
    expect(await command.run({ values: {}, positionals: [gz] })).toBe(0);
    const report = out.join('\n');
    expect(report).toContain(`${gz}: 23 jobs simulated, 11 skipped`);
    expect(report).toMatch(/^ +Computer: Hypothetical HPC-8 cluster, Installation: Test Centre for Workload Studies \(TCWS\), Version: 2\.2$/m);
    expect(report).toMatch(/^ +MaxNodes 8, MaxProcs 32, MaxJobs 30$/m);
    expect(report).toMatch(/^ +Sun Jan {2}1 00:00:00 GMT 2006 – Sun Jan {2}1 01:00:00 GMT 2006$/m);
    // 28 fields, 8 of them shown by name.
    expect(report).toMatch(/^ +20 other header fields \(--json lists them\)$/m);
    expect(err).toContain(`warning: ${gz}: skipped 1 job: zero processors (job 13)`);

    out.length = 0;
    expect(await command.run({ values: { json: true }, positionals: [gz] })).toBe(0);
    const json = JSON.parse(out.join('\n')) as { header: { key: string; value: string }[]; jobsSkipped: number; metrics: { jobs: number } };
    expect(json.header).toHaveLength(28);
    expect(json.header[0]).toEqual({ key: 'Version', value: '2.2' });
    expect(json.header.at(-1)).toEqual({ key: 'Note', value: 'job 20 was cancelled while it waited' });
    expect(json).toMatchObject({ jobsSkipped: 11, metrics: { jobs: 23 } });
  });

  it('a header without the PWA fields shows only what it has', () => {
    expect(formatSwfHeader({ fields: [] })).toEqual([]);
    expect(formatSwfHeader({ fields: [{ key: 'MaxNodes', value: '2' }, { key: 'Note', value: 'a\nb' }] })).toEqual(['MaxNodes 2', '1 other header field (--json lists them)']);
  });
});

describe('gzip as a stream', () => {
  it('reads multi-member gzip files and files larger than the hand-over slot', () => {
    const lines = ['; MaxNodes: 1'];
    for (let i = 1; i <= 40_000; i++) lines.push(`${i} ${i} -1 ${i % 97} 1 -1 -1 1 100 -1 1 3 -1 -1 -1 -1 -1 -1`);
    const text = lines.join('\n') + '\n';
    const cut = text.indexOf('\n20000 ') + 1;
    const path = join(dir, 'members.swf.gz');
    writeFileSync(path, Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]));
    const { ids } = readAll(path);
    expect(ids).toHaveLength(40_000);
    expect(ids[39_999]).toBe(40_000);
  });

  it('is told by its magic bytes, not its name', () => {
    const path = join(dir, 'named-plain.swf');
    writeFileSync(path, gzipSync(TEXT));
    expect(readAll(path).ids).toEqual(KEPT);
  });

  it('a truncated .gz: an InputError at the decompressed line where the data stops', () => {
    const whole = gzipSync(TEXT);
    const path = join(dir, 'cut.swf.gz');
    writeFileSync(path, whole.subarray(0, whole.length - 8));
    // Cutting the 8-byte trailer (CRC and length) keeps every byte of text: the data is complete but
    // the member is not, so the error comes after the last line (34 jobs + 32 header lines = line 66).
    let err: unknown;
    try {
      readAll(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const d = (err as InputError).diagnostics[0]!;
    expect(d.message).toMatch(/^the gzip data ends early \(zlib: unexpected end of file\)$/);
    expect(d.pos).toMatchObject({ file: path, line: 67, column: 1 });
    expect(d.hint).toMatch(/cut short/);
  });

  it('a .gz cut in the middle: the error names a line inside the file, and nothing hangs', () => {
    const whole = gzipSync(TEXT);
    const path = join(dir, 'half.swf.gz');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(() => readAll(path)).toThrow(/half\.swf\.gz:\d+:\d+: error: the gzip data ends early/);
  });

  it('corrupt gzip data: an InputError, not a crash', () => {
    const path = join(dir, 'corrupt.swf.gz');
    writeFileSync(path, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not really gzip at all')]));
    expect(() => readAll(path)).toThrow(/corrupt\.swf\.gz:1:1: error: the gzip data is corrupt \(zlib: /);
  });
});
