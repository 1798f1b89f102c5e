import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createWorkerContext } from '@app/platform/bootstrap/create-app.js';
import { resolveDatabase } from '@app/platform/bootstrap/database-url.js';
import { loadConfigWith } from '@app/platform/config/app-config.js';
import { NotificationFanoutJob } from '@app/notifications/notification-fanout.job.js';
import { NotificationsRepository } from '@app/notifications/notifications.repository.js';
import { startBenchOrg } from './bench-org.js';

/** The request the bench times (docs/notifications.md "Performance"). */
const INBOX = '/api/notifications?limit=50&unreadOnly=true';

/** Members one event is fanned out to (the target in docs/notifications.md "Performance"). */
const MEMBERS = 1000;

/**
 * `npm run bench:notifications -- [--notifications N] [--requests R] [--json]` (docs/notifications.md
 * "Performance"): with N notifications (default 100,000) in the team's owner's inbox, a quarter
 * unread, the service's latency of `GET /api/notifications?limit=50&unreadOnly=true` over R
 * sequential requests (p50, p99, wall milliseconds at the client, after 20 warm-up requests),
 * beside the same figures of a trivial authenticated GET (`baseline_*`: what authentication and
 * the HTTP stack cost on this machine) and of the inbox query alone (`query_*`, the repository
 * called in this process: what the index costs);
 * then, with 1,000 members in the team, the time to fan out one `backup.failed` event to all of
 * them (rows inserted and their e-mail jobs enqueued, one transaction), the median of 3 events,
 * run by NotificationFanoutJob in a context of this process on the service's database.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      notifications: { type: 'string', default: '100000' },
      requests: { type: 'string', default: '1000' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const count = Number(values.notifications);
  const requests = Number(values.requests);
  if (!Number.isInteger(count) || count < 100) throw new Error('--notifications must be at least 100');
  if (!Number.isInteger(requests) || requests < 10) throw new Error('--requests must be at least 10');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users: 100, rateLimits: 'none', log: () => {} });
  const config = loadConfigWith({ ...bench.service.env, ROLE: 'api', LOG_LEVEL: 'error' });
  const database = await resolveDatabase(config);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT team_id, user_id FROM team_members WHERE role = 'super_admin'`);
    const { team_id: teamId, user_id: ownerId } = rows[0] as { team_id: string; user_id: string };
    log(`seeding ${count} notifications...`);
    await seedInbox(db, teamId, ownerId, count);

    const inbox = await timeRequests(requests, async () => {
      const { notifications } = await bench.api.get<{ notifications: unknown[] }>(INBOX);
      if (notifications.length !== 50)
        throw new Error(`the inbox answered ${notifications.length} notifications`);
    });
    const baseline = await timeRequests(requests, () => bench.api.get('/api/backup/active'));

    await addMembers(db, teamId, MEMBERS - 1);
    log(`fanning out to ${MEMBERS} members...`);
    const context = await createWorkerContext(config, database.url);
    const fanouts: number[] = [];
    let query: number[];
    try {
      const repository = context.get(NotificationsRepository);
      query = await timeRequests(requests, async () => {
        await repository.list(teamId, ownerId, 50, true);
      });
      const job = context.get(NotificationFanoutJob);
      for (let event = 0; event < 3; event += 1) {
        const started = performance.now();
        const emails = await job.fanOut({
          eventId: randomUUID(),
          teamId,
          type: 'backup.failed',
          severity: 'high',
          title: 'Backup of Bench failed',
          message: 'Okta answered 500',
          data: { target: { type: 'connection', id: bench.connectionId } },
          link: `/connections/${bench.connectionId}`,
          first: false,
          audience: 'members',
        });
        fanouts.push(performance.now() - started);
        if (emails !== MEMBERS) throw new Error(`the fan-out reached ${emails} members`);
      }
    } finally {
      await context.close();
    }

    const result = {
      notifications: count,
      requests,
      p50_ms: percentile(inbox, 50),
      p99_ms: percentile(inbox, 99),
      baseline_p50_ms: percentile(baseline, 50),
      baseline_p99_ms: percentile(baseline, 99),
      query_p50_ms: percentile(query, 50),
      query_p99_ms: percentile(query, 99),
      fanout_members: MEMBERS,
      fanout_1000_ms: Math.round(fanouts.sort((a, b) => a - b)[1]),
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else
      process.stdout.write(
        `${Object.entries(result)
          .map(([key, value]) => `${key.padEnd(16)} ${value}`)
          .join('\n')}\n`,
      );
  } finally {
    await db.end();
    await database.stop();
    await bench.close();
  }
}

/** Wall milliseconds of `count` sequential calls after 20 warm-up calls, sorted. */
async function timeRequests(count: number, call: () => Promise<unknown>): Promise<number[]> {
  for (let warm = 0; warm < 20; warm += 1) await call();
  const times: number[] = [];
  for (let request = 0; request < count; request += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** The `p`th percentile of sorted `times`, two decimals. */
function percentile(times: number[], p: number): number {
  return Math.round(times[Math.ceil((p / 100) * times.length) - 1] * 100) / 100;
}

/** `count` notifications for `userId`, one a second back from now, every fourth unread. */
async function seedInbox(db: pg.Client, teamId: string, userId: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO notifications (team_id, user_id, event_id, type, severity, title, message, data, in_app, email_state, read_at, created_at)
     SELECT $1, $2, gen_random_uuid(), 'backup.failed', 'high', 'Backup of Bench failed', 'Okta answered 500',
            jsonb_build_object('n', i), true, 'none',
            CASE WHEN i % 4 = 0 THEN NULL ELSE now() END, now() - make_interval(secs => i)
     FROM generate_series(1, $3) AS i`,
    [teamId, userId, count],
  );
  await db.query('ANALYZE notifications');
}

/** `count` more members of the team, role viewer. */
async function addMembers(db: pg.Client, teamId: string, count: number): Promise<void> {
  await db.query(
    `WITH added AS (
       INSERT INTO users (email) SELECT 'member-' || i || '@bench.example' FROM generate_series(1, $2) AS i RETURNING id
     )
     INSERT INTO team_members (team_id, user_id, role) SELECT $1, id, 'viewer' FROM added`,
    [teamId, count],
  );
  await db.query('ANALYZE team_members');
}

await main();
