import type { BackupContext, Check, CheckOutcome, CheckParams } from './compliance-types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function outcome(fields: Omit<CheckOutcome, 'resourceType' | 'total' | 'pointers'>): CheckOutcome {
  return { ...fields, resourceType: 'backup', total: fields.resources.length, pointers: [] };
}

/**
 * Backups taken often enough: the gap between this backup and the connection's previous one,
 * against `maxIntervalHours`. The first backup of a connection cannot show a cadence: warning.
 * Fixed for a given backup, so results stored per backup stay true.
 */
const backupCadence: Check = {
  key: 'backup.cadence',
  id: 'service.backup.cadence',
  title: 'Backups are taken at least as often as required',
  remediation:
    'Enable a backup schedule for the connection (PUT /api/schedules) at least as frequent as required.',
  reads: [],
  start: (params: CheckParams, context: BackupContext) => ({
    finish() {
      const expected = { maxIntervalHours: params.maxIntervalHours };
      const self = { id: context.backupId, name: null, observed: context.collectedAt };
      if (context.previousBackupAt === null)
        return outcome({
          status: 'warning',
          resources: [self],
          observed: { intervalHours: null },
          expected,
          note: 'This is the first completed backup of the connection: no interval to judge yet.',
        });
      const hours = (Date.parse(context.collectedAt) - Date.parse(context.previousBackupAt)) / HOUR_MS;
      return outcome({
        status: hours <= Number(params.maxIntervalHours) ? 'pass' : 'fail',
        resources: [self],
        observed: { intervalHours: Math.round(hours * 10) / 10, previousBackupAt: context.previousBackupAt },
        expected,
      });
    },
  }),
};

/**
 * A restore tested recently: the last successful restore of the connection completed at most
 * `maxDays` before this backup was collected (CIS Controls 11.5).
 */
const restoreTested: Check = {
  key: 'backup.restore_tested',
  id: 'service.backup.restore_tested',
  title: 'A restore was tested recently',
  remediation:
    'Run a restore or a verification drill (POST /api/restore, or `npm run demo` against a sandbox org).',
  reads: [],
  start: (params: CheckParams, context: BackupContext) => ({
    finish() {
      const expected = { maxDaysSinceRestore: params.maxDays };
      const resources = [{ id: context.backupId, name: null }];
      if (context.lastRestoreAt === null)
        return outcome({
          status: 'fail',
          resources,
          observed: { lastRestoreAt: null },
          expected,
          note: 'No restore of this connection had completed when the backup was taken.',
        });
      const days = (Date.parse(context.collectedAt) - Date.parse(context.lastRestoreAt)) / DAY_MS;
      return outcome({
        status: days <= Number(params.maxDays) ? 'pass' : 'fail',
        resources,
        observed: { lastRestoreAt: context.lastRestoreAt, daysSinceRestore: Math.floor(days) },
        expected,
      });
    },
  }),
};

/** Checks of the service's own evidence (backups and restores), the same for every provider. */
export const SERVICE_CHECKS: readonly Check[] = [backupCadence, restoreTested];
