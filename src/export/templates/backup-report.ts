import { badge, figures, reportDocument, type ReportCover, table } from './layout.js';

/** What the backup report shows (docs/export.md). */
export interface BackupReportData {
  cover: ReportCover;
  backup: {
    id: string;
    status: string;
    kind: string;
    triggeredBy: string;
    startedAt: string;
    completedAt: string | null;
    seconds: number | null;
    size: number;
    requests: number;
    sha256: string | null;
    baseBackupId: string | null;
    errorMessage: string | null;
    counts: Record<string, number>;
  };
  /** per type, what the provider never returns (the snapshot manifest's `notCaptured`) */
  notCaptured: Record<string, readonly string[]>;
  /** the snapshot opened, its manifest authenticated and its fingerprint equal to the one recorded */
  integrity: string;
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** A backup's report: a summary, counts per type, what is not captured, and its integrity. */
export function backupReport(data: BackupReportData): string {
  const { backup } = data;
  const total = Object.values(backup.counts).reduce((sum, count) => sum + count, 0);
  const summary = `<h2>Summary</h2>${figures([
    ['Status', backup.status],
    ['Objects', total.toLocaleString('en-US')],
    ['Resource types', Object.keys(backup.counts).length],
    ['Stored', megabytes(backup.size)],
  ])}${table(
    ['Field', 'Value'],
    [
      ['Backup id', backup.id],
      ['Kind', backup.kind + (backup.baseBackupId ? ` (on ${backup.baseBackupId})` : '')],
      ['Triggered by', backup.triggeredBy],
      ['Started', backup.startedAt],
      ['Completed', backup.completedAt ?? '-'],
      ['Duration', backup.seconds === null ? '-' : `${backup.seconds.toFixed(1)} s`],
      ['Requests to the provider', backup.requests],
      ['Manifest SHA-256', backup.sha256 ?? '-'],
      ...(backup.errorMessage ? [['Error', backup.errorMessage]] : []),
    ],
    'None.',
    [30, 70],
  )}`;
  const counts = `<h2>Objects per resource type</h2>${table(
    ['Resource type', 'Objects'],
    Object.entries(backup.counts).map(([type, count]) => [type, count.toLocaleString('en-US')]),
    'None.',
    [70, 30],
  )}`;
  const notCaptured = `<h2>What the provider never returns</h2><p class="muted small">Fields and sub-resources the provider's API does not expose, or secrets the backup drops on purpose: a restore cannot bring them back.</p>${table(
    ['Resource type', 'Not captured'],
    Object.entries(data.notCaptured).map(([type, items]) => [type, items.join(', ')]),
    'Nothing: every field of every type is held.',
  )}`;
  const integrity = `<h2>Integrity</h2><p>${badge(backup.status === 'completed' ? 'pass' : 'fail')} ${data.integrity}</p>`;
  return reportDocument(data.cover, [summary, counts, notCaptured, integrity]);
}
