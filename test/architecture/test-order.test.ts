// The test files' order (test/support/long-files-first.ts): the files driving real hosts and daemons start
// first, each group in the order vitest itself gives, and no file is lost or repeated.
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import LongFilesFirst, { startsFirst } from '../support/long-files-first.js';

const ROOT = '/repo';

/** What BaseSequencer.sort reads of a file: a clean clone's cache knows no durations, only sizes. */
function spec(path: string): TestSpecification {
  return { moduleId: `${ROOT}/${path}`, project: { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } } } as unknown as TestSpecification;
}

function sequencer(sizes: Record<string, number>): LongFilesFirst {
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: sizes[key.slice(key.indexOf(':') + 1)] ?? 0 }),
    },
  };
  return new LongFilesFirst(ctx as unknown as Vitest);
}

describe('the order of the test files', () => {
  it('starts the files under test/netns and test/slurm first, larger first within each group, as vitest orders them', async () => {
    const sizes = {
      'test/formats/big.test.ts': 90_000,
      'test/netns/run-host-faults.test.ts': 9_000,
      'test/scheduler/small.test.ts': 1_000,
      'test/slurm/slurm-walltime.test.ts': 1_700,
      'test/netns/run-packet-loss.test.ts': 2_800,
      'test/real/origin-full.test.ts': 5_000,
    };
    const files = Object.keys(sizes).map(spec);
    const sorted = await sequencer(sizes).sort(files);
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/netns/run-host-faults.test.ts',
      'test/netns/run-packet-loss.test.ts',
      'test/slurm/slurm-walltime.test.ts',
      'test/formats/big.test.ts',
      'test/real/origin-full.test.ts',
      'test/scheduler/small.test.ts',
    ]);
  });

  it('takes a folder only at the start of the path relative to the repository', () => {
    expect(startsFirst('test/netns/run-link-cut.test.ts')).toBe(true);
    expect(startsFirst('test\\slurm\\slurm-run.test.ts')).toBe(true);
    expect(startsFirst('test/real/netns-like.test.ts')).toBe(false);
    expect(startsFirst('other/test/netns/x.test.ts')).toBe(false);
  });
});
