import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Three test files at a time, whatever the cores: the longest files mostly wait on real processes
    // (sshd hosts stopped and resumed, Slurm daemons, deadlines, a browser), not on the CPU, and each keeps
    // its resources apart (netns slots, its own Slurm and munge on free ports, temporary folders). On 2
    // cores, vitest's default (one fewer worker than cores) ran the files one after another: 21 minutes
    // against 9 with three.
    maxWorkers: 3,
    // The files that drive real hosts and daemons start first (test/support/long-files-first.ts).
    sequence: { sequencer: LongFilesFirst },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
