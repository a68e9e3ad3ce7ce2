// Prints the run's closing line as "Tests: N passed, N failed, N skipped", after vitest's own
// summary, so CI can count the tests from the last line.
import type { Reporter, TestModule } from "vitest/node"

export default class SummaryReporter implements Reporter {
  private line = ""

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") count.passed++
        else if (state === "failed") count.failed++
        else count.skipped++
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) count.failed++
    }
    this.line = `Tests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`
  }

  // vitest's default reporter prints its summary in onFinished, after onTestRunEnd: print after it.
  onFinished(): void {
    process.stdout.write(`\n${this.line}\n`)
  }
}
