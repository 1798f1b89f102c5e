import { parseArgs } from 'node:util';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { round, startBenchOrg } from './bench-org.js';

/** Each figure is the median of this many calls (the first call also warms caches). */
const RUNS = 5;

/**
 * `npm run bench:diff -- [--users N] [--backups N] [--json]`: backs up a generated org, changes 1 %
 * of its users through its Okta API, backs it up again, then once more per remaining backup
 * (editing one user every fourth time), and times through the service's API: the diff with 1 %
 * changed, the diff with nothing changed, the peak RSS of the service during those diffs, and
 * the timeline of the edited user over the last `--backups` backups (their figures: docs/diff.md, docs/benchmarks/diff.md).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100000' },
      backups: { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const users = Number(values.users);
  const backups = Number(values.backups);
  if (!Number.isInteger(users) || users < 100)
    throw new Error('--users must be a whole number of at least 100');
  if (!Number.isInteger(backups) || backups < 3)
    throw new Error('--backups must be a whole number of at least 3');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users, rateLimits: 'none', log: () => {} });
  const okta = new SimulatorClient(bench.org);
  try {
    const userIds = bench.org.snapshot().user.map((user) => user.id);
    const edit = async (id: string, title: string) => {
      const response = await okta.call('POST', `/api/v1/users/${id}`, { json: { profile: { title } } });
      if (response.status !== 200) throw new Error(`editing user ${id} answered ${response.status}`);
    };
    // Not among the 1 % (every hundredth), so its timeline holds only the edits below.
    const target = userIds[1];
    const backupIds: string[] = [];
    const backup = async () => {
      const { backupId, seconds } = await bench.backup();
      backupIds.push(backupId);
      log(`backup ${backupIds.length}/${backups}: ${round(seconds)} s`);
    };

    await backup();
    const changed = userIds.filter((_, index) => index % 100 === 0);
    for (const id of changed) await edit(id, `Edited for the diff benchmark ${id}`);
    await backup();
    let edits = 0;
    while (backupIds.length < backups) {
      if (backupIds.length % 4 === 0) {
        edits += 1;
        await edit(target, `Timeline step ${edits}`);
      }
      await backup();
    }

    // A fresh process: its peak RSS is then the diffs' own, not the backups' before them.
    await bench.restartService();
    // The drift alerts the backups queued (a diff each) run at the new process's start: not inside the figures.
    await bench.service.settle();
    const diff = (from: string, to: string) =>
      bench.api.post<{ changes: unknown[] }>('/api/diff', { fromBackupId: from, toBackupId: to });
    const oneChanged = await timed(
      () => diff(backupIds[0], backupIds[1]),
      (result) => result.changes.length,
      changed.length,
    );
    const noneChanged = await timed(
      () => diff(backupIds[1], backupIds[2]),
      (result) => result.changes.length,
      0,
    );
    const diffPeakRss = bench.service.peakRssMb();
    const timeline = await timed(
      () =>
        bench.api.get<{ events: unknown[] }>(
          `/api/resource-timeline?connectionId=${bench.connectionId}&resourceType=user&resourceId=${target}&limit=${backups}`,
        ),
      (result) => result.events.length,
      // The oldest backup in the window is "first seen", then one event per edit.
      1 + edits,
    );
    const result = {
      users,
      backups,
      changed_users: changed.length,
      diff_1pct_ms: oneChanged,
      diff_0pct_ms: noneChanged,
      diff_peak_rss_mb: diffPeakRss,
      timeline_ms: timeline,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else
      process.stdout.write(
        `${Object.entries(result)
          .map(([key, value]) => `${key.padEnd(20)} ${value}`)
          .join('\n')}\n`,
      );
  } finally {
    await okta.agent.close();
    await bench.close();
  }
}

/**
 * Median wall milliseconds of RUNS calls, each checked: a figure for a wrong answer is worthless.
 * @throws Error when a call's `size` differs from `expected`
 */
async function timed<T>(
  call: () => Promise<T>,
  size: (result: T) => number,
  expected: number,
): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const result = await call();
    times.push(performance.now() - started);
    if (size(result) !== expected) throw new Error(`expected ${expected} entries, got ${size(result)}`);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]);
}

await main();
