import { Injectable } from '@nestjs/common';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { TimelineQuery } from './dto/timeline.query.js';
import { type TimelineEvent, resourceHistory } from './resource-history.js';

/** Change history of one resource across a connection's backups (spec "Resource timeline"). */
@Injectable()
export class TimelineService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly snapshots: BackupSnapshotsService,
  ) {}

  /**
   * Events over the connection's last `limit` completed backups, oldest first. A resource no
   * backup holds gives an empty list, not an error.
   * @throws NotFoundError for a connection the team cannot see
   */
  async timeline(actor: Actor, query: TimelineQuery): Promise<{ events: TimelineEvent[] }> {
    await this.connections.getRef(actor.teamId, query.connectionId);
    const backups = await this.snapshots.openLatest(actor.teamId, query.connectionId, query.limit);
    return { events: await resourceHistory(backups, query.resourceType, query.resourceId) };
  }
}
