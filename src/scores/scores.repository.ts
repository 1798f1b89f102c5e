import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ConnectionDriftEntity } from './connection-drift.entity.js';

/** What the scores of one connection are computed from, gathered in one query. */
export interface ConnectionFacts {
  connectionId: string;
  teamId: string;
  provider: string;
  lastBackupAt: Date | null;
  lastBackupVerified: boolean;
  resourceTypes: string[];
  resourceCount: number;
  scheduleFrequency: string | null;
  completed30: number;
  failed30: number;
  lastRestoreAt: Date | null;
  retentionDays: number | null;
  drift: ConnectionDriftEntity | null;
}

interface FactsRow {
  connection_id: string;
  team_id: string;
  provider: string;
  last_backup_at: Date | null;
  sha256: string | null;
  resource_types: string[] | null;
  resource_count: string | null;
  frequency: string | null;
  completed_30: number;
  failed_30: number;
  last_restore_at: Date | null;
  retention_days: number | null;
  since: Date | null;
  changes: number | null;
  by_severity: Record<string, number> | null;
  checked_at: Date | null;
  error: string | null;
  counted_from: Date | null;
  incomplete_reason: string | null;
}

/**
 * The scores' read model: one query over a team's connections with their last completed
 * backup, 30-day outcomes, last completed restore, enabled schedule, plan retention and stored
 * drift (every connection of a team at once, so readiness costs one round trip), and the drift
 * rows the drift job writes. Read-only over the other features' tables.
 */
@Injectable()
export class ScoresRepository {
  constructor(
    @InjectRepository(ConnectionDriftEntity) private readonly drifts: Repository<ConnectionDriftEntity>,
  ) {}

  /** Facts of the team's connections (or one of them), oldest connection first. */
  async facts(teamId: string | null, connectionId?: string): Promise<ConnectionFacts[]> {
    const rows: FactsRow[] = await this.drifts.query(
      `SELECT c.id AS connection_id, c.team_id, c.provider,
              lb.started_at AS last_backup_at, lb.sha256, lb.resource_types,
              (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(lb.resource_counts)) AS resource_count,
              CASE WHEN s.enabled THEN s.frequency END AS frequency,
              (SELECT count(*)::int FROM backups b WHERE b.connection_id = c.id AND b.status = 'completed' AND b.started_at > now() - interval '30 days') AS completed_30,
              (SELECT count(*)::int FROM backups b WHERE b.connection_id = c.id AND b.status = 'failed' AND b.started_at > now() - interval '30 days') AS failed_30,
              (SELECT max(r.completed_at) FROM restores r WHERE r.connection_id = c.id AND r.status = 'completed') AS last_restore_at,
              p.retention_days,
              d.since, d.changes, d.by_severity, d.checked_at, d.error, d.counted_from, d.incomplete_reason
         FROM connections c
         JOIN teams t ON t.id = c.team_id
         JOIN plans p ON p.name = t.plan
         LEFT JOIN LATERAL (
           SELECT b.started_at, b.sha256, b.resource_types, b.resource_counts FROM backups b
            WHERE b.connection_id = c.id AND b.status = 'completed'
            ORDER BY b.started_at DESC LIMIT 1) lb ON true
         LEFT JOIN schedules s ON s.connection_id = c.id
         LEFT JOIN connection_drift d ON d.connection_id = c.id
        WHERE c.deleted_at IS NULL AND ($1::uuid IS NULL OR c.team_id = $1) AND ($2::uuid IS NULL OR c.id = $2)
        ORDER BY c.created_at, c.id`,
      [teamId, connectionId ?? null],
    );
    return rows.map(toFacts);
  }

  /** Stores a drift reading (one row per connection, replaced each time). */
  async saveDrift(drift: ConnectionDriftEntity): Promise<void> {
    await this.drifts.upsert(drift, ['connectionId']);
  }

  /** Records that a reading failed, keeping the previous counts. */
  async markDriftFailed(connectionId: string, error: string): Promise<void> {
    await this.drifts.update({ connectionId }, { error });
  }
}

function toFacts(row: FactsRow): ConnectionFacts {
  return {
    connectionId: row.connection_id,
    teamId: row.team_id,
    provider: row.provider,
    lastBackupAt: row.last_backup_at,
    lastBackupVerified: row.sha256 !== null,
    resourceTypes: row.resource_types ?? [],
    resourceCount: Number(row.resource_count ?? 0),
    scheduleFrequency: row.frequency,
    completed30: row.completed_30,
    failed30: row.failed_30,
    lastRestoreAt: row.last_restore_at,
    retentionDays: row.retention_days,
    drift:
      row.checked_at === null
        ? null
        : Object.assign(new ConnectionDriftEntity(), {
            connectionId: row.connection_id,
            teamId: row.team_id,
            since: row.since!,
            changes: row.changes!,
            bySeverity: row.by_severity!,
            checkedAt: row.checked_at,
            error: row.error,
            countedFrom: row.counted_from,
            incompleteReason: row.incomplete_reason,
          }),
  };
}
