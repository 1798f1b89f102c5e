import { writeSync } from 'node:fs';
import { relative } from 'node:path';

/** Test files listed by the closing summary, slowest first: where the suite's time goes. */
const SLOWEST_FILES = 12;

/**
 * Prints the slowest test files with their seconds, then one closing line `N passed, N failed,
 * N skipped`, the plain form CI reads to know how many tests ran. Written at process exit,
 * synchronously (Jest's --forceExit does not wait for streams), so that it follows Jest's own
 * summary.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const slowest = results.testResults
      .map((file) => ({
        path: file.testFilePath,
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST_FILES)
      .map(({ path, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${relative(process.cwd(), path)}`);
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.once('exit', () => writeSync(2, `\nSlowest test files:\n${slowest.join('\n')}\n\n${line}\n`));
  }
}
