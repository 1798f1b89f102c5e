import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, Repository } from 'typeorm';
import type { ChangeAttribution } from '@libs/providers/provider-connector.js';
import { ChangeAttributionEntity } from './change-attribution.entity.js';

/** Rows written per INSERT. */
const INSERT_BATCH = 500;

/** Team-scoped access to `change_attributions`; only this class touches the table. */
@Injectable()
export class ChangeAttributionsRepository {
  constructor(
    @InjectRepository(ChangeAttributionEntity) private readonly rows: Repository<ChangeAttributionEntity>,
  ) {}

  /**
   * Keeps entries read by a backup; an entry already kept (same connection, event and object:
   * the windows of two backups overlap) is kept once.
   */
  async insert(
    owner: { teamId: string; connectionId: string; backupId: string },
    entries: readonly ChangeAttribution[],
  ): Promise<void> {
    for (let start = 0; start < entries.length; start += INSERT_BATCH) {
      const values = entries.slice(start, start + INSERT_BATCH).map((entry) => ({
        ...owner,
        eventId: entry.eventId,
        targetId: entry.targetId,
        targetType: entry.targetType ?? null,
        resourceType: entry.resourceType ?? null,
        eventType: entry.eventType,
        changedAt: new Date(entry.changedAt),
        actorId: entry.actor.id,
        actorDisplayName: entry.actor.displayName,
        actorType: entry.actor.type,
        actorAlternateId: entry.actor.alternateId ?? null,
        actorIp: entry.actor.ipAddress ?? null,
        actorUserAgent: entry.actor.userAgent ?? null,
        byThisService: entry.byThisService,
      }));
      await this.rows.createQueryBuilder().insert().values(values).orIgnore().execute();
    }
  }

  /** The connection's entries changed in `[since, until]`, oldest first. */
  async between(
    teamId: string,
    connectionId: string,
    since: Date,
    until: Date,
  ): Promise<ChangeAttribution[]> {
    const rows = await this.rows.find({
      where: { teamId, connectionId, changedAt: Between(since, until) },
      order: { changedAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toAttribution);
  }

  /** When the connection's last kept entry happened; null when none is kept. */
  async lastChangedAt(teamId: string, connectionId: string): Promise<Date | null> {
    const row = await this.rows.findOne({ where: { teamId, connectionId }, order: { changedAt: 'DESC' } });
    return row?.changedAt ?? null;
  }
}

function toAttribution(row: ChangeAttributionEntity): ChangeAttribution {
  return {
    eventId: row.eventId,
    targetId: row.targetId,
    ...(row.targetType ? { targetType: row.targetType } : {}),
    ...(row.resourceType ? { resourceType: row.resourceType } : {}),
    changedAt: row.changedAt.toISOString(),
    eventType: row.eventType,
    byThisService: row.byThisService,
    actor: {
      id: row.actorId,
      displayName: row.actorDisplayName,
      type: row.actorType,
      ...(row.actorAlternateId ? { alternateId: row.actorAlternateId } : {}),
      ...(row.actorIp ? { ipAddress: row.actorIp } : {}),
      ...(row.actorUserAgent ? { userAgent: row.actorUserAgent } : {}),
    },
  };
}
