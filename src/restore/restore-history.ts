import { Injectable } from '@nestjs/common';
import type { IdMap } from '@libs/providers/provider-restore.js';
import { RestoresRepository } from './restores.repository.js';

/**
 * The read other features make of a team's restore history, without the restore workflow
 * (RestoreService, its jobs and packages): compliance's tested-restore evidence, and the ids a
 * diff pairs re-created objects by.
 */
@Injectable()
export class RestoreHistory {
  constructor(private readonly restores: RestoresRepository) {}

  /**
   * When the connection's last successful restore finished, at or before `atOrBefore`; null
   * when none did. Scoped to `teamId`: another team's connection has none.
   */
  lastCompletedAt(teamId: string, connectionId: string, atOrBefore: Date): Promise<Date | null> {
    return this.restores.lastCompletedAt(teamId, connectionId, atOrBefore);
  }

  /**
   * The id map of the restores of the connection started in `[since, until]` (restores into its
   * own org): each id a restore re-created an object under, from the object's id before, as its
   * items record them (`resource_id` -> `new_id`; composite ids part by part too:
   * `<groupId>:<userId>` maps `groupId`). An object re-created twice maps from its first id to its
   * last. Scoped to `teamId`.
   */
  async recreatedIds(teamId: string, connectionId: string, since: Date, until: Date): Promise<IdMap> {
    const ids = new Map<string, string>();
    /** each id a restore gave, to the first id of its object */
    const firstOf = new Map<string, string>();
    for (const item of await this.restores.recreatedBetween(teamId, connectionId, since, until)) {
      const from = item.resourceId.split(':');
      const to = item.newId!.split(':');
      const pairs: Array<[string, string]> = [[item.resourceId, item.newId!]];
      if (from.length === to.length) from.forEach((part, index) => pairs.push([part, to[index]]));
      for (const [old, now] of pairs) {
        if (old === now) continue;
        const first = firstOf.get(old);
        if (first !== undefined) ids.set(first, now);
        ids.set(old, now);
        firstOf.set(now, first ?? old);
      }
    }
    return ids;
  }
}
