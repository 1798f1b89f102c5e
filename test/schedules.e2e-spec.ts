import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, waitForBackup } from './support/backup-helpers.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';

const DAY_MS = 24 * 3600 * 1000;

/** The wall clock of an instant in a time zone, e.g. `Sun 05:00`. */
function wallClock(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string): string => parts.find((p) => p.type === type)!.value;
  return `${part('weekday')} ${part('hour')}:${part('minute')}`;
}

describe('backup schedules (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;

  beforeAll(async () => {
    // Latency keeps a backup running long enough to see a slot skipped while one runs.
    org = await startTestOrg({ users: 10, groups: 2, apps: 1, seed: 5, faults: { latencyMs: 40 } });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  const getSchedule = (token = admin.token, id = connectionId) =>
    ctx.http.get(`/api/connections/${id}/schedule`).set('Authorization', `Bearer ${token}`);
  const patchSchedule = (body: unknown, token = admin.token, id = connectionId) =>
    ctx.http
      .patch(`/api/connections/${id}/schedule`)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const scheduledBackups = async (): Promise<BackupDto[]> => {
    const list = await ctx.http
      .get('/api/backup/list')
      .query({ connectionId })
      .set('Authorization', `Bearer ${admin.token}`);
    return (list.body.backups as BackupDto[]).filter((backup) => backup.triggered_by === 'schedule');
  };

  const DEFAULT = {
    enabled: false,
    frequency: 'daily',
    hour: 2,
    timezone: 'UTC',
    incremental_enabled: true,
    full_backup_day: 0,
    verify_weekly: false,
    verify_sandbox_connection_id: null,
    retention_days: null,
    retention_count: null,
    next_run_at: null,
    next_runs: [],
  };

  it('answers the default schedule for a connection that never had one', async () => {
    const response = await getSchedule();
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DEFAULT);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['hour above 23', { hour: 24 }, 'hour'],
    ['negative hour', { hour: -1 }, 'hour'],
    ['fractional hour', { hour: 2.5 }, 'hour'],
    ['hour as a string', { hour: '3' }, 'hour'],
    ['hour null', { hour: null }, 'hour'],
    ['day_of_week 7', { frequency: 'weekly', day_of_week: 7 }, 'day_of_week'],
    ['day_of_month 29', { frequency: 'monthly', day_of_month: 29 }, 'day_of_month'],
    ['day_of_month 0', { frequency: 'monthly', day_of_month: 0 }, 'day_of_month'],
    ['full_backup_day 7', { full_backup_day: 7 }, 'full_backup_day'],
    ['verify_weekly as a string', { verify_weekly: 'yes' }, 'verify_weekly'],
    ['unknown frequency', { frequency: 'yearly' }, 'frequency'],
    ['enabled as a string', { enabled: 'true' }, 'enabled'],
    ['incremental_enabled as a number', { incremental_enabled: 1 }, 'incremental_enabled'],
    ['unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    ['UTC offset as time zone', { timezone: '+02:00' }, 'timezone'],
    ['minute (not settable)', { minute: 30 }, 'minute'],
    ['next_run_at (not settable)', { next_run_at: '2030-01-01T00:00:00Z' }, 'next_run_at'],
    ['day_of_week on a daily schedule', { day_of_week: 1 }, 'day_of_week'],
    [
      'day_of_month on a weekly schedule',
      { frequency: 'weekly', day_of_week: 1, day_of_month: 1 },
      'day_of_month',
    ],
    ['weekly without day_of_week', { frequency: 'weekly' }, 'day_of_week'],
    ['monthly without day_of_month', { frequency: 'monthly' }, 'day_of_month'],
  ])('refuses %s with a 400 naming the field', async (_case, body, field) => {
    const response = await patchSchedule(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.details).toEqual([{ field, message: expect.stringContaining(field) }]);
  });

  it('saved nothing from the refused changes', async () => {
    expect((await getSchedule()).body).toEqual(DEFAULT);
  });

  it('saves a weekly schedule and runs it on that weekday and hour in its time zone', async () => {
    const response = await patchSchedule({
      enabled: true,
      frequency: 'weekly',
      day_of_week: 0,
      hour: 5,
      timezone: 'America/New_York',
    });
    expect(response.status).toBe(200);
    const { schedule } = response.body;
    expect(schedule).toEqual({
      ...DEFAULT,
      enabled: true,
      frequency: 'weekly',
      day_of_week: 0,
      hour: 5,
      timezone: 'America/New_York',
      next_run_at: expect.any(String),
      next_runs: expect.any(Array),
    });
    expect(wallClock(schedule.next_run_at, 'America/New_York')).toBe('Sun 05:00');
    expect(schedule.next_runs[0]).toBe(schedule.next_run_at);
    expect(schedule.next_runs.map((run: string) => wallClock(run, 'America/New_York'))).toEqual([
      'Sun 05:00',
      'Sun 05:00',
      'Sun 05:00',
    ]);
    const ahead = Date.parse(schedule.next_run_at) - Date.now();
    expect(ahead > 0 && ahead <= 7 * DAY_MS).toBe(true);
    expect((await getSchedule()).body).toEqual(schedule);
  });

  it('keeps the stored weekday when only the hour changes', async () => {
    const { schedule } = (await patchSchedule({ hour: 6 })).body;
    expect(schedule).toMatchObject({ frequency: 'weekly', day_of_week: 0, hour: 6 });
    expect(wallClock(schedule.next_run_at, 'America/New_York')).toBe('Sun 06:00');
  });

  it('switches to monthly: day_of_month appears, day_of_week is gone and no longer accepted', async () => {
    const response = await patchSchedule({
      frequency: 'monthly',
      day_of_month: 28,
      timezone: 'Asia/Kolkata',
    });
    expect(response.status).toBe(200);
    expect(response.body.schedule).not.toHaveProperty('day_of_week');
    expect(response.body.schedule).toMatchObject({ frequency: 'monthly', day_of_month: 28, hour: 6 });
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(response.body.schedule.next_run_at));
    expect(local).toBe('28, 06:00');
    const refused = await patchSchedule({ day_of_week: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { field: 'day_of_week', message: 'day_of_week applies to weekly schedules only' },
    ]);
  });

  it('switches to hourly (no day fields, the next top of the hour) and off (no next run)', async () => {
    const hourly = (await patchSchedule({ frequency: 'hourly', timezone: 'UTC' })).body.schedule;
    expect(hourly).not.toHaveProperty('day_of_month');
    expect(hourly).not.toHaveProperty('day_of_week');
    const next = new Date(hourly.next_run_at);
    expect([next.getUTCMinutes(), next.getUTCSeconds()]).toEqual([0, 0]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(3600 * 1000);
    const off = (await patchSchedule({ enabled: false })).body.schedule;
    expect(off).toMatchObject({ enabled: false, frequency: 'hourly', next_run_at: null, next_runs: [] });
  });

  it('answers the next three runs in the time zone, across a daylight saving change', async () => {
    // A second connection, so its scheduled backup leaves the first one's history alone.
    const parisId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const saved = await patchSchedule(
      { enabled: true, frequency: 'daily', hour: 2, timezone: 'Europe/Paris' },
      admin.token,
      parisId,
    );
    expect(saved.status).toBe(200);
    const runs: string[] = saved.body.schedule.next_runs;
    expect(runs[0]).toBe(saved.body.schedule.next_run_at);
    expect(runs.map((run) => wallClock(run, 'Europe/Paris').slice(4))).toEqual(['02:00', '02:00', '02:00']);
    // The slot of Friday 2027-03-26 passes (as the minute tick would see it), so the schedule moves on
    // to Saturday. Europe/Paris springs forward on Sunday 2027-03-28 at 02:00 CET (to 03:00 CEST):
    // that day's 02:00 does not exist and runs at 03:00 CEST (docs/schedules.md), and from Monday
    // 02:00 is CEST, an hour earlier in UTC.
    const [started] = await ctx.app
      .get(SchedulesService)
      .enqueueDue(new Date('2027-03-26T01:00:30Z'), (teamId, id) =>
        ctx.app.get(BackupsService).startScheduled(teamId, id),
      );
    expect(started).toEqual(expect.any(String));
    const after = (await getSchedule(admin.token, parisId)).body;
    expect(after.next_run_at).toBe('2027-03-27T01:00:00.000Z');
    expect(after.next_runs).toEqual([
      '2027-03-27T01:00:00.000Z', // 02:00 CET
      '2027-03-28T01:00:00.000Z', // 03:00 CEST, the first minute after the skipped hour
      '2027-03-29T00:00:00.000Z', // 02:00 CEST
    ]);
    expect(await waitForBackup(ctx, admin.token, started!)).toMatchObject({ status: 'completed' });
    await patchSchedule({ enabled: false }, admin.token, parisId);
  });

  it('answers 404 for a connection of another team or none, 400 for a malformed id', async () => {
    const stranger = await ctx.newClient({ role: 'admin' });
    expect((await getSchedule(stranger.token)).status).toBe(404);
    expect((await patchSchedule({ hour: 3 }, stranger.token)).status).toBe(404);
    expect((await getSchedule(admin.token, randomUUID())).body).toMatchObject({ code: 'not_found' });
    expect((await patchSchedule({ hour: 3 }, admin.token, randomUUID())).status).toBe(404);
    expect((await getSchedule(admin.token, 'not-a-uuid')).status).toBe(400);
    expect((await getSchedule()).body.hour).toBe(6);
  });

  it('refuses roles without "manage connections" (403), reading and writing', async () => {
    for (const role of ['viewer', 'operator'] as const) {
      const client = await ctx.newClient({ role, teamId: admin.teamId });
      expect((await getSchedule(client.token)).body).toMatchObject({ code: 'forbidden' });
      expect((await patchSchedule({ enabled: true }, client.token)).status).toBe(403);
    }
    expect((await getSchedule()).body.enabled).toBe(false);
  });

  describe('enqueueing due schedules (as each worker replica does every minute)', () => {
    let enqueueDue: (now: Date) => Promise<string[]>;
    let slot: number;

    beforeAll(async () => {
      // As the scheduler's minute tick calls it (src/platform/cron/backups.cron.ts).
      const sut = ctx.app.get(SchedulesService);
      const backups = ctx.app.get(BackupsService);
      enqueueDue = (now) =>
        sut.enqueueDue(now, (teamId, connectionId) => backups.startScheduled(teamId, connectionId));
      // Twelve hours away from now, so the app's own minute tick never finds it due during the test.
      const hour = (new Date().getUTCHours() + 12) % 24;
      const response = await patchSchedule({ enabled: true, frequency: 'daily', hour, timezone: 'UTC' });
      slot = Date.parse(response.body.schedule.next_run_at);
    });

    it('starts one backup per slot however many replicas tick at once; it completes', async () => {
      const now = new Date(slot + 1000);
      const [first, second] = await Promise.all([enqueueDue(now), enqueueDue(now)]);
      expect([...first, ...second]).toHaveLength(1);
      const backups = await scheduledBackups();
      expect(backups.map((backup) => backup.id)).toEqual([...first, ...second]);
      expect(backups[0]).toMatchObject({ triggered_by: 'schedule', status: 'running' });
      expect((await getSchedule()).body.next_run_at).toBe(new Date(slot + DAY_MS).toISOString());

      // The next slot comes while that backup still runs: it is skipped, not queued behind it.
      expect(await enqueueDue(new Date(slot + DAY_MS + 1000))).toEqual([]);
      expect((await getSchedule()).body.next_run_at).toBe(new Date(slot + 2 * DAY_MS).toISOString());

      expect(await waitForBackup(ctx, admin.token, backups[0].id)).toMatchObject({ status: 'completed' });
      expect(await scheduledBackups()).toHaveLength(1);
    });

    it('after a long downtime runs a missed schedule once, not once per missed slot', async () => {
      const nextRun = slot + 2 * DAY_MS;
      const now = new Date(nextRun + 3 * DAY_MS + 60_000); // three more slots have passed
      const started = await enqueueDue(now);
      expect(started).toHaveLength(1);
      expect(await enqueueDue(now)).toEqual([]);
      expect((await getSchedule()).body.next_run_at).toBe(new Date(nextRun + 4 * DAY_MS).toISOString());
      expect(await waitForBackup(ctx, admin.token, started[0])).toMatchObject({ status: 'completed' });
      const backups = await scheduledBackups();
      expect(backups).toHaveLength(2);
      expect(backups.every((backup) => backup.status === 'completed')).toBe(true);
    });
  });
});
