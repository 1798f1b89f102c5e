import type { ChangeActor, ChangeAttribution } from '@libs/providers/provider-connector.js';

/**
 * Whether the provider's audit log said who made a change: `recorded` (`changedBy` names them),
 * `no_record` (the log was read for the period and held nothing about the object: older than
 * its retention when read, or a change the log does not record), `not_available` (the provider
 * has no audit log this service reads, or a backup of the period could not read it: a permission
 * not granted; `attributionReason` says which).
 */
export type AttributionStatus = 'recorded' | 'no_record' | 'not_available';

/** Who made a change and when, as a diff change, a timeline event or an undo row carries it. */
export interface ChangeAttributed {
  /** the last actor the log names for the object in the period; null when it names none */
  changedBy: ChangeActor | null;
  /** when that actor changed it (ISO 8601); null with `changedBy` */
  changedAt: string | null;
  /** the log's event type of that change, e.g. Okta's `group.lifecycle.delete` */
  eventType?: string;
  /** the change was made by this service itself (a restore) */
  byThisService?: boolean;
  attribution: AttributionStatus;
  /** with `not_available`, why, when known (the permission the connection lacks to read the log) */
  attributionReason?: string;
}

/** A backup that could not read the provider's log: when it started (ISO 8601), and why. */
export interface UnreadLog {
  backupStartedAt: string;
  reason: string;
}

/** Which attributed changes a caller wants: by one actor, in a time window (ISO 8601, inclusive). */
export interface AttributionFilter {
  /** the actor's id as the log names it (Okta: a user id, or a service app's client id) */
  actor?: string;
  since?: string;
  until?: string;
}

/**
 * The log's entries of a period, looked up by object: an entry names an object by id (or
 * `<parentId>:<childId>`), and concerns a record when the ids agree (the record's id, or one of
 * its components: a role grant naming the user concerns `<userId>:<assignmentId>`) and, when the
 * entry says its resource type, the types agree.
 */
export class AttributionIndex {
  private readonly byTarget = new Map<string, ChangeAttribution[]>();
  private readonly available: boolean;

  /**
   * @param entries the period's entries; `undefined` when the provider has no audit log
   *   (every lookup then answers `not_available`, with `unavailable` as its reason when given)
   * @param unavailable why there are no entries (with `entries` undefined)
   * @param unread the backups of the period that could not read the log: an object they leave
   *   without an entry is `not_available` for their reason, not `no_record`
   */
  constructor(
    entries: Iterable<ChangeAttribution> | undefined,
    private readonly unavailable?: string,
    private readonly unread: readonly UnreadLog[] = [],
  ) {
    this.available = entries !== undefined;
    for (const entry of entries ?? []) {
      const list = this.byTarget.get(entry.targetId) ?? [];
      list.push(entry);
      this.byTarget.set(entry.targetId, list);
    }
  }

  /** Every entry about the record of `type` with id `id`, oldest first. */
  entriesFor(type: string, id: string): ChangeAttribution[] {
    const keys = new Set([id, ...id.split(':')]);
    const found: ChangeAttribution[] = [];
    for (const key of keys)
      for (const entry of this.byTarget.get(key) ?? [])
        if (entry.resourceType === undefined || entry.resourceType === type) found.push(entry);
    return found.sort((a, b) => Date.parse(a.changedAt) - Date.parse(b.changedAt));
  }

  /**
   * The record's attribution: the last entry about it that passes `filter` (made by its actor, in
   * its window), or why there is none.
   * @param period when given, only entries in it count, as if no other were known (a timeline's
   *   event: the period between two backups)
   * @returns null when a filter is given and no entry passes it (the change is filtered out)
   */
  attributionOf(
    type: string,
    id: string,
    filter: AttributionFilter = {},
    period: { since?: string; until?: string } = {},
  ): ChangeAttributed | null {
    const filtering = filter.actor !== undefined || filter.since !== undefined || filter.until !== undefined;
    if (!this.available) return filtering ? null : notAvailable(this.unavailable);
    const entries = this.entriesFor(type, id).filter(
      (entry) => passes(entry, period) && passes(entry, filter),
    );
    if (filtering && entries.length === 0) return null;
    const unread = entries.length === 0 && this.unread.find((read) => readIn(read, period));
    return unread ? notAvailable(unread.reason) : attributedBy(entries.at(-1));
  }
}

/** `not_available`, with why when known. */
function notAvailable(reason: string | undefined): ChangeAttributed {
  return {
    changedBy: null,
    changedAt: null,
    attribution: 'not_available',
    ...(reason === undefined ? {} : { attributionReason: reason }),
  };
}

/**
 * Whether a backup's read of the log covered part of `period`: it read from the previous backup's
 * start on, so it counts when it started after the period's start and at or before its end.
 */
function readIn(read: UnreadLog, period: { since?: string; until?: string }): boolean {
  const at = Date.parse(read.backupStartedAt);
  if (period.since !== undefined && at <= Date.parse(period.since)) return false;
  return !(period.until !== undefined && at > Date.parse(period.until));
}

/** The attribution an entry gives; `no_record` without one. */
export function attributedBy(entry: ChangeAttribution | undefined): ChangeAttributed {
  if (!entry) return { changedBy: null, changedAt: null, attribution: 'no_record' };
  return {
    changedBy: entry.actor,
    changedAt: entry.changedAt,
    eventType: entry.eventType,
    byThisService: entry.byThisService,
    attribution: 'recorded',
  };
}

/** Whether an entry passes `filter`: its actor, at or after `since`, at or before `until`. */
function passes(entry: ChangeAttribution, filter: AttributionFilter): boolean {
  if (filter.actor !== undefined && entry.actor.id !== filter.actor) return false;
  const at = Date.parse(entry.changedAt);
  if (filter.since !== undefined && at < Date.parse(filter.since)) return false;
  return !(filter.until !== undefined && at > Date.parse(filter.until));
}
