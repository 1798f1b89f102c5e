import { Injectable, Logger } from '@nestjs/common';
import type { ChangeAttribution, ProviderConnector } from '@libs/providers/provider-connector.js';
import { LogWindowExceededError, ProviderAuthError, ProviderError } from '@libs/providers/provider-errors.js';
import { AttributionIndex } from '@libs/diff/change-attribution.js';
import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import { ChangeAttributionsRepository } from './change-attributions.repository.js';
import { ChangeAttributionReadsRepository } from './change-attribution-reads.repository.js';

/** How long the provider keeps its log, at most (Okta: 90 days): older instants are not asked for. */
const LOG_RETENTION_MS = 90 * 24 * 3600 * 1000;

/**
 * Who changed what (docs/diff.md "Who changed it"): each backup reads, from the provider's audit
 * log (`ProviderConnector.readChangeAttribution`), who changed each object since the previous
 * backup, and keeps it beside the snapshot; diffs, timelines and undo look it up by period.
 */
@Injectable()
export class ChangeAttributionService {
  private readonly logger = new Logger(ChangeAttributionService.name);

  constructor(
    private readonly rows: ChangeAttributionsRepository,
    private readonly reads: ChangeAttributionReadsRepository,
  ) {}

  /**
   * Reads and keeps the log's entries from `since` (the previous backup's start, or the last entry
   * kept if later) to now, and records whether the log could be read. A log that cannot be read (a
   * scope or permission missing, the provider failing) does not fail the backup: it is logged and
   * recorded with the provider's answer, and the period's changes without an entry say
   * `not_available` with that reason.
   * @returns the entries kept, or null when the provider has no audit log or it failed
   */
  async capture(
    backup: { id: string; teamId: string; connectionId: string; startedAt: Date },
    connector: ProviderConnector,
    since: Date,
    signal?: AbortSignal,
  ): Promise<number | null> {
    if (!connector.readChangeAttribution) return null;
    const last = await this.rows.lastChangedAt(backup.teamId, backup.connectionId);
    const floor = Date.now() - LOG_RETENTION_MS + 60_000;
    const from = new Date(Math.max(since.getTime(), last?.getTime() ?? 0, floor));
    let entries: ChangeAttribution[];
    try {
      entries = await readAll(connector, from, signal);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.logger.warn(`Backup ${backup.id}: who changed what could not be read: ${error.message}`);
      await this.reads.record(backup, error.message);
      return null;
    }
    await this.rows.insert(
      { teamId: backup.teamId, connectionId: backup.connectionId, backupId: backup.id },
      entries,
    );
    await this.reads.record(backup, null);
    return entries.length;
  }

  /**
   * The connection's kept entries of `[since, until]`, indexed by object, with the backups of the
   * period that could not read the log (their objects without an entry are `not_available`).
   * @param unavailable why there is no log to read (the provider has none, two connections share
   *   none): every lookup answers `not_available` with it; undefined when there is one
   */
  async indexOf(
    teamId: string,
    connectionId: string,
    since: Date,
    until: Date,
    unavailable: string | undefined,
  ): Promise<AttributionIndex> {
    if (unavailable !== undefined) return new AttributionIndex(undefined, unavailable);
    const [entries, unread] = await Promise.all([
      this.rows.between(teamId, connectionId, since, until),
      this.reads.unreadBetween(teamId, connectionId, since, until),
    ]);
    return new AttributionIndex(entries, undefined, unread);
  }

  /**
   * Who changed what since `since`, as an undo needs it: the entries the backups kept, with those
   * the provider's log holds now that no backup read yet (read live through `connector`), each once.
   * A log that cannot be read now leaves the kept entries alone (logged).
   * @returns `entries` undefined when the provider has no audit log, or when the connection's
   *   credentials may not read it and nothing was kept (`unavailable` then says why)
   */
  async since(
    backup: { teamId: string; connectionId: string },
    connector: ProviderConnector,
    since: Date,
    signal?: AbortSignal,
  ): Promise<{ entries: ChangeAttribution[] | undefined; unavailable?: string }> {
    if (!connector.readChangeAttribution) return { entries: undefined };
    const kept = await this.rows.between(backup.teamId, backup.connectionId, since, new Date());
    const seen = new Set(kept.map(keyOf));
    const from = new Date(Math.max(since.getTime(), Date.now() - LOG_RETENTION_MS + 60_000));
    try {
      const live = (await readAll(connector, from, signal)).filter((entry) => !seen.has(keyOf(entry)));
      return { entries: [...kept, ...live] };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.logger.warn(`Who changed what could not be read from the live log: ${error.message}`);
      // Credentials that may not read the log (a permission not granted): nothing kept says who
      // changed what, and the log cannot, so attribution is not available, for that reason.
      if (error instanceof ProviderAuthError && kept.length === 0)
        return { entries: undefined, unavailable: error.message };
      return { entries: kept };
    }
  }
}

/** Why a diff of two connections has no attribution (docs/diff.md "Who changed it"). */
export const NO_COMMON_LOG = 'A comparison of two connections has no common audit log.';

/**
 * Why the provider's changes are never attributed, or undefined when its connector reads its audit
 * log (`attributesChanges`): its descriptor's `changeAttributionUnavailable`.
 */
export function noLogReason(
  provider: Pick<ProviderDescriptor, 'label' | 'attributesChanges' | 'changeAttributionUnavailable'>,
): string | undefined {
  if (provider.attributesChanges === true) return undefined;
  return provider.changeAttributionUnavailable ?? `${provider.label} has no audit log this service reads.`;
}

/**
 * Every entry the connector's log holds from `from` to now; when the log no longer reaches back
 * that far (LogWindowExceededError: Entra ID keeps 7 or 30 days), from the oldest instant it holds.
 * @throws ProviderError as `readChangeAttribution`
 */
async function readAll(
  connector: ProviderConnector,
  from: Date,
  signal?: AbortSignal,
): Promise<ChangeAttribution[]> {
  const until = new Date().toISOString();
  const read = async (since: string) => {
    const entries: ChangeAttribution[] = [];
    for await (const entry of connector.readChangeAttribution!(since, until, { signal })) entries.push(entry);
    return entries;
  };
  try {
    return await read(from.toISOString());
  } catch (error) {
    if (!(error instanceof LogWindowExceededError)) throw error;
    return read(new Date(Date.parse(error.heldSince) + 60_000).toISOString());
  }
}

/** An entry's identity: one event about one object. */
function keyOf(entry: ChangeAttribution): string {
  return `${entry.eventId}\u0000${entry.targetId}`;
}
