import { writeSync } from 'node:fs';

/**
 * Prints one closing line `N passed, N failed, N skipped`, the plain form CI reads to know how
 * many tests ran. Written at process exit, synchronously (Jest's --forceExit does not wait for
 * streams), so that it follows Jest's own summary.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.once('exit', () => writeSync(2, `\n${line}\n`));
  }
}
