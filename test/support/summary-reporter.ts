// Prints one plain closing line, "tests: N passed, N failed[, N skipped]", that any CI log reader understands.
// A test that did not run because its file failed (a hook threw, an import failed) counts as failed, not
// skipped, so that the line never hides a failure.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      const moduleFailed = mod.state() === 'failed';
      const tests = [...mod.children.allTests()];
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || moduleFailed) failed++;
        else skipped++;
      }
      if (moduleFailed && tests.every((t) => t.result().state === 'passed')) failed++;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${tail}\n`);
  }
}
