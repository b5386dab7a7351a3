import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunRecord, parseRunRecordText, formatRunRecord } from '../../src/record/record-reader.js';
import { InputError } from '../../src/util/diagnostics.js';
import { syntheticRun } from '../fixtures/records/synthetic-run.js';

const header = '{"type":"header","t":0,"gridsweepVersion":"0.1.0","mode":"sim","heuristic":"h","seed":1,"inputs":{},"options":{},"taskCount":1}';

function errorOf(text: string): InputError {
  try {
    parseRunRecordText(text, 'run.jsonl');
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('run record reader', () => {
  it('reads back every event of a record it wrote, streaming from a file', async () => {
    const events = syntheticRun({ seed: 3 });
    const dir = mkdtempSync(join(tmpdir(), 'gs-rec-'));
    const path = join(dir, 'run.jsonl');
    writeFileSync(path, formatRunRecord(events));
    expect(await loadRunRecord(path)).toEqual(events);
  });

  it('names file:line:column for a line that is not JSON', () => {
    const err = errorOf(`${header}\n{"type":"start","t":1,\n`);
    expect(err.diagnostics[0]!.pos).toMatchObject({ file: 'run.jsonl', line: 2 });
    expect(err.message).toMatch(/^run\.jsonl:2:\d+: error: not a valid JSON line/);
  });

  it('explains an unknown event type and a bad resource', () => {
    const err = errorOf(
      `${header}\n{"type":"strat","t":1}\n{"type":"start","t":1,"id":0,"kind":"compute","resource":{"type":"host","cluster":"c0"}}\n`,
    );
    expect(err.diagnostics).toHaveLength(2);
    expect(err.message).toContain("run.jsonl:2:1: error: unknown event type\n  found: \"strat\"");
    expect(err.message).toContain("run.jsonl:3:1: error: 'start' event with a bad 'resource'");
  });

  it('rejects a record without a header, time going backwards and unpaired ends', () => {
    expect(errorOf('{"type":"end","t":1,"id":0,"ok":true}\n').message).toContain('does not start with a header');
    expect(errorOf('').message).toContain('empty run record');
    const backwards = errorOf(`${header}\n{"type":"sched","t":5,"call":"x"}\n{"type":"sched","t":4,"call":"x"}\n`);
    expect(backwards.message).toContain('run.jsonl:3:1: error: time goes backwards');
    expect(errorOf(`${header}\n{"type":"end","t":1,"id":9,"ok":true}\n`).message).toContain("'end' of sub-task 9, which is not running");
  });

  it('reports a missing file as an input error', async () => {
    const missing = join(tmpdir(), 'gs-no-such-dir', 'run.jsonl');
    expect(existsSync(missing)).toBe(false);
    await expect(loadRunRecord(missing)).rejects.toThrow(/run\.jsonl:1:1: error: cannot read the run record \(no such file\)/);
  });

  it('reports a folder as an input error (it opens, and fails at its first read)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'gs-record-folder-'));
    try {
      await expect(loadRunRecord(folder)).rejects.toThrow(`${folder}:1:1: error: cannot read the run record (it is a folder)`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
