import type { AttributionFilter, AttributionIndex } from '@libs/diff/change-attribution.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import type { ResourceStep, TimelineEvent } from './resource-history.js';

/**
 * Each event of a resource's timeline with who made the change (docs/diff.md "Who changed it"):
 * the last change the audit log records for the resource between the previous backup's start and
 * the event's backup's end; only the events that pass `filter` are kept.
 * @param backups the timeline's backups, oldest first (events name them by id)
 */
export function attributeEvents(
  events: readonly ResourceStep[],
  backups: readonly OpenedBackup[],
  index: AttributionIndex,
  resource: { type: string; id: string },
  filter: AttributionFilter,
): TimelineEvent[] {
  const position = new Map(backups.map((opened, at) => [opened.backup.id, at]));
  const kept: TimelineEvent[] = [];
  for (const event of events) {
    const at = position.get(event.backupId) ?? 0;
    const { backup } = backups[at];
    const period = {
      ...(at > 0 ? { since: backups[at - 1].backup.startedAt.toISOString() } : {}),
      until: (backup.completedAt ?? backup.startedAt).toISOString(),
    };
    const by = index.attributionOf(resource.type, resource.id, filter, period);
    if (by) kept.push({ ...event, ...by });
  }
  return kept;
}
