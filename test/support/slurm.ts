// The test Slurm lives with the benchmarks' support (the Slurm benchmark starts one too).
export * from '../../bench/support/test-slurm.js';
