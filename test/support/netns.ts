// Grid hosts in network namespaces for tests: see bench/support/netns-grid.ts. The harness lives under
// bench/ because the benchmarks (compiled by tsc, which does not compile test/) use it too; tests import
// it from here.
export * from '../../bench/support/netns-grid.js';
