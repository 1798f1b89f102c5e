import { Injectable, Logger } from '@nestjs/common';
import type { ChangeAttribution, ProviderConnector } from '@libs/providers/provider-connector.js';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { AttributionIndex } from '@libs/diff/change-attribution.js';
import { ChangeAttributionsRepository } from './change-attributions.repository.js';

/** How far back a backup reads the log when the connection has no entry and no earlier backup: none. */
const LOG_RETENTION_MS = 90 * 24 * 3600 * 1000;

/**
 * Who changed what (docs/diff.md "Who changed it"): each backup reads, from the provider's audit
 * log (`ProviderConnector.readChangeAttribution`), who changed each object since the previous
 * backup, and keeps it beside the snapshot; diffs, timelines and undo look it up by period.
 */
@Injectable()
export class ChangeAttributionService {
  private readonly logger = new Logger(ChangeAttributionService.name);

  constructor(private readonly rows: ChangeAttributionsRepository) {}

  /**
   * Reads and keeps the log's entries from `since` (the previous backup's start, or the last entry
   * kept if later) to now. A log that cannot be read (a scope missing, the provider failing) does
   * not fail the backup: it is logged, and the period's changes say `no_record`.
   * @returns the entries kept, or null when the provider has no audit log or it failed
   */
  async capture(
    backup: { id: string; teamId: string; connectionId: string },
    connector: ProviderConnector,
    since: Date,
    signal?: AbortSignal,
  ): Promise<number | null> {
    if (!connector.readChangeAttribution) return null;
    const last = await this.rows.lastChangedAt(backup.teamId, backup.connectionId);
    const floor = Date.now() - LOG_RETENTION_MS + 60_000;
    const from = new Date(Math.max(since.getTime(), last?.getTime() ?? 0, floor));
    const entries: ChangeAttribution[] = [];
    try {
      const until = new Date().toISOString();
      for await (const entry of connector.readChangeAttribution(from.toISOString(), until, { signal }))
        entries.push(entry);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.logger.warn(`Backup ${backup.id}: who changed what could not be read: ${error.message}`);
      return null;
    }
    await this.rows.insert(
      { teamId: backup.teamId, connectionId: backup.connectionId, backupId: backup.id },
      entries,
    );
    return entries.length;
  }

  /**
   * The connection's kept entries of `[since, until]`, indexed by object.
   * @param available false when the provider has no audit log (lookups answer `not_available`)
   */
  async indexOf(
    teamId: string,
    connectionId: string,
    since: Date,
    until: Date,
    available: boolean,
  ): Promise<AttributionIndex> {
    if (!available) return new AttributionIndex(undefined);
    return new AttributionIndex(await this.rows.between(teamId, connectionId, since, until));
  }
}
