import { escapeHtml, figures, reportDocument, type ReportCover, table } from './layout.js';

/** One event of the audit trail, as the activity report shows it. */
export interface ActivityEvent {
  occurredAt: string;
  actor: string;
  action: string;
  target: string;
  outcome: string;
}

/** What the activity report shows (docs/export.md). */
export interface ActivityReportData {
  cover: ReportCover;
  events: readonly ActivityEvent[];
  /** events beyond those listed (a long period is summarized, never a page per event) */
  more: number;
}

/** Most events listed per day; the rest are counted by action. */
const EVENTS_PER_DAY = 40;

/** The audit trail of a period: outcomes of backups and restores first, then the events by day. */
export function activityReport(data: ActivityReportData): string {
  const byAction = new Map<string, number>();
  for (const event of data.events) byAction.set(event.action, (byAction.get(event.action) ?? 0) + 1);
  const count = (prefix: string) =>
    [...byAction].filter(([action]) => action.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);
  const summary = `<h2>Summary</h2>${figures([
    ['Events', data.events.length + data.more],
    ['Backups completed', count('backup.completed')],
    ['Backups failed', count('backup.failed')],
    ['Restores', count('restore.completed') + count('restore.partial') + count('restore.failed')],
  ])}${table(
    ['Action', 'Events'],
    [...byAction].sort((a, b) => b[1] - a[1]).map(([action, n]) => [action, n]),
    'Nothing happened in this period.',
  )}`;
  const outcomes = `<h2>Backups and restores</h2>${table(
    ['When', 'Action', 'Target', 'Outcome'],
    data.events
      .filter((event) => /^(backup|restore)\.(completed|failed|partial)$/.test(event.action))
      .map((event) => [event.occurredAt, event.action, event.target, event.outcome]),
    'No backup or restore finished in this period.',
  )}`;
  const days = new Map<string, ActivityEvent[]>();
  for (const event of data.events) {
    const day = event.occurredAt.slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), event]);
  }
  const daily = [...days].map(([day, events]) => {
    const listed = events.slice(0, EVENTS_PER_DAY);
    const rest = events.length - listed.length;
    return `<h2>${escapeHtml(day)}</h2>${table(
      ['Time', 'Actor', 'Action', 'Target', 'Outcome'],
      listed.map((event) => [
        event.occurredAt.slice(11, 19),
        event.actor,
        event.action,
        event.target,
        event.outcome,
      ]),
    )}${rest > 0 ? `<p class="muted small">${rest} more events this day (the audit pack lists them all).</p>` : ''}`;
  });
  const more =
    data.more > 0
      ? [`<p class="muted">${data.more} more events after these (the audit pack lists them all).</p>`]
      : [];
  return reportDocument(data.cover, [summary, outcomes, ...daily, ...more]);
}
