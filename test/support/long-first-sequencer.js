import TestSequencer from '@jest/test-sequencer';

/**
 * Files that take minutes each, longest first (the recorded-org round trips, 5 to 7 min each on
 * 2 busy cores; the other fidelity files, restore and undo, and the README's commands, 3 to 5;
 * every provider's conformance, the replication-lag restore and the fault suite, 1 to 3), matched
 * by path. Jest orders a run it has no timings for (a fresh clone, as in
 * CI) by file size, which would start these small files last and leave one worker running them
 * alone.
 */
const LONG_RUNNING = [
  /restore-fidelity-recorded/,
  /fidelity|readme-commands/,
  /provider-conformance|replication-lag|\/faults\//,
];

/**
 * Jest's own order (failed first, then longest as last timed, else largest), with the files known
 * to take minutes moved to the front in LONG_RUNNING's order, so that the workers finish
 * together.
 */
export default class LongFirstSequencer extends (TestSequencer.default ?? TestSequencer) {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      const at = LONG_RUNNING.findIndex((pattern) => pattern.test(test.path));
      return at === -1 ? LONG_RUNNING.length : at;
    };
    // Array.prototype.sort is stable: within a rank, Jest's order stays.
    return sorted
      .map((test) => ({ test, rank: rank(test) }))
      .sort((a, b) => a.rank - b.rank)
      .map(({ test }) => test);
  }
}
