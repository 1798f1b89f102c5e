/**
 * Prints one closing line `N passed, N failed, N skipped` after Jest's own summary, the plain
 * form CI reads to know how many tests ran.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
