import { Injectable } from '@nestjs/common';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { TimelineQuery } from './dto/timeline.query.js';
import { type TimelineEvent, resourceHistory } from './resource-history.js';
import { ChangeAttributionService, noLogReason } from '@app/attribution/change-attribution.service.js';
import { requireProvider } from '@libs/providers/registry.js';
import { attributeEvents } from './timeline-attribution.js';

/** Change history of one resource across a connection's backups (spec "Resource timeline"). */
@Injectable()
export class TimelineService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly attributions: ChangeAttributionService,
  ) {}

  /**
   * Events over the connection's last `limit` completed backups, oldest first, each with who made
   * the change (kept by the backups from the provider's audit log), filtered by `actor`, `since`
   * and `until` when given. A resource no backup holds gives an empty list, not an error.
   * @throws NotFoundError for a connection the team cannot see
   */
  async timeline(actor: Actor, query: TimelineQuery): Promise<{ events: TimelineEvent[] }> {
    const connection = await this.connections.getRef(actor.teamId, query.connectionId);
    const backups = await this.snapshots.openLatest(actor.teamId, query.connectionId, query.limit);
    const events = await resourceHistory(backups, query.resourceType, query.resourceId);
    const last = backups.at(-1)?.backup;
    if (!last) return { events: [] };
    const index = await this.attributions.indexOf(
      actor.teamId,
      query.connectionId,
      new Date(0),
      last.completedAt ?? last.startedAt,
      noLogReason(requireProvider(connection.provider)),
    );
    const resource = { type: query.resourceType, id: query.resourceId };
    return { events: attributeEvents(events, backups, index, resource, query) };
  }
}
