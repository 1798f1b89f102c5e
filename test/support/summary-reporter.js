import { writeSync } from 'node:fs';
import { relative } from 'node:path';

/** Test files listed by the closing summary, slowest first: where the suite's time goes. */
const SLOWEST_FILES = 12;

/** A skipped block's or test's title says why (test/support/tools.ts): `[skipped: needs ...]`. */
const SKIP_REASON = /\[skipped: ([^\]]+)\]/;

/**
 * The skipped tests, by file and reason, one line each: `N  file: reason`. A test skipped without
 * a reason in its titles is listed under its outermost title.
 */
function skippedLines(results) {
  const counts = new Map();
  for (const file of results.testResults) {
    for (const test of file.testResults) {
      if (test.status !== 'pending' && test.status !== 'skipped' && test.status !== 'todo') continue;
      const titles = [...test.ancestorTitles, test.title];
      const reason =
        titles.map((title) => SKIP_REASON.exec(title)?.[1]).find(Boolean) ??
        `no reason given ("${titles[0]}")`;
      const key = `${relative(process.cwd(), file.testFilePath)}: ${reason}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts].map(([key, count]) => `${String(count).padStart(7)}  ${key}`);
}

/**
 * Prints the slowest test files with their seconds, then the skipped tests with why (loud: what
 * this run did not prove), then one closing line `N passed, N failed, N skipped`, the plain form
 * CI reads to know how many tests ran. Written at process exit, synchronously (Jest's --forceExit
 * does not wait for streams), so that it follows Jest's own summary.
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
    const skipped = skippedLines(results);
    const banner = skipped.length
      ? `\n*** SKIPPED: ${results.numPendingTests + results.numTodoTests} tests did not run, so this run does not prove them ***\n${skipped.join('\n')}\n`
      : '';
    process.once('exit', () =>
      writeSync(2, `\nSlowest test files:\n${slowest.join('\n')}\n${banner}\n${line}\n`),
    );
  }
}
