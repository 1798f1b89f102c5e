/** Response of POST /api/backup/run (spec "Backups"). */
export interface BackupStarted {
  backupId: string;
  instanceId: string;
  status: 'started';
}
