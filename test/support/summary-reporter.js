/**
 * Prints one closing line `N passed, N failed, N skipped`, the plain form CI reads to know how
 * many tests ran. Written at process exit so that it follows Jest's own summary.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.once('exit', () => process.stderr.write(`\n${line}\n`));
  }
}
