import TestSequencer from '@jest/test-sequencer';

/**
 * Files that take minutes each (the fidelity round trips, the fault suite, the README's commands),
 * matched by path. Jest orders a run it has no timings for (a fresh clone, as in CI) by file size,
 * which would start these small-fronted files last and leave one worker running them alone.
 */
const LONG_RUNNING = [/restore-fidelity/, /\/faults\//, /readme-commands/];

/**
 * Jest's own order (failed first, then longest as last timed, else largest), with the files known
 * to take minutes moved to the front, so that the two workers finish together.
 */
export default class LongFirstSequencer extends (TestSequencer.default ?? TestSequencer) {
  sort(tests) {
    const sorted = super.sort(tests);
    const long = (test) => LONG_RUNNING.some((pattern) => pattern.test(test.path));
    return [...sorted.filter(long), ...sorted.filter((test) => !long(test))];
  }
}
